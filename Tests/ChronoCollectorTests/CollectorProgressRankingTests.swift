import ChronoCollector
import ChronoStore
import ChronoSync
import Testing

/// Which intervals the collector's progress shows when there are more than it has room for: the
/// same ones on every request, even when two devices' sessions tie on count and start.
@Suite("Collector progress: interval ranking")
struct CollectorProgressRankingTests {
    typealias F = CollectorFixtures

    @Test func tiesGoToTheShorterIntervalOnEveryRequest() {
        let hour: Int64 = 3_600_000_000_000
        // Four intervals with two sessions each, then three with one session each started at the same
        // instant on two devices (simulated histories ending at the same second do this).
        var sessions: [CollectorSession] = []
        for (index, seconds) in [10, 20, 30, 40].enumerated() {
            for ago in [Int64(index + 1) * hour, Int64(index + 10) * hour] {
                sessions.append(CollectorSession(deviceID: F.deviceID, deviceName: "a", participant: "P",
                                                 session: F.challenge(startedAgo: ago, intervalSeconds: Int64(seconds)), receivedUnixNanoseconds: F.now))
            }
        }
        for (device, seconds) in [(F.otherDeviceID, 70), (F.deviceID, 50), (F.otherDeviceID, 60)] {
            sessions.append(CollectorSession(deviceID: device, deviceName: device == F.deviceID ? "a" : "b", participant: "P",
                                             session: F.challenge(startedAgo: 30 * hour, intervalSeconds: Int64(seconds)), receivedUnixNanoseconds: F.now))
        }
        #expect(ChronoStore.progressIntervalCount == 5)
        // Each report builds its own dictionary, whose order differs between instances; the shuffles
        // vary the input order too.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let report = CollectorProgress.report(sessions.shuffled(using: &generator), nowUnixNanoseconds: F.now, utcOffsetSeconds: 0)
            #expect(report.intervals.map(\.interval.seconds) == [10, 20, 30, 40, 50])
        }
    }
}
