import Testing
@testable import ChronoSync

/// Last writer wins by Lamport clock, never by a wall clock; ties go to the collector.
struct PreferenceMergeTests {
    func stamp(_ key: String, _ value: String, _ clock: Int64, _ origin: PreferenceOrigin) -> StampedPreference {
        StampedPreference(key: key, value: value, clock: clock, origin: origin)
    }

    @Test func aChangeMadeAfterSeeingAnotherWins() {
        let device = [stamp("default-interval", "45s", 4, .device)]
        let collector = [stamp("default-interval", "30s", 3, .collector)]
        #expect(PreferenceMerge.merge(device, collector) == device)
        #expect(PreferenceMerge.merge(collector, device) == device)
    }

    @Test func concurrentChangesAgreeOnTheCollectorsValueWhicheverEndMerges() {
        let device = [stamp("default-attempts", "5", 7, .device)]
        let collector = [stamp("default-attempts", "10", 7, .collector)]
        #expect(PreferenceMerge.merge(device, collector) == collector)
        #expect(PreferenceMerge.merge(collector, device) == collector)
    }

    @Test func keysMergeIndependentlyAndLocalOnesNeverTravel() {
        let device = [stamp("fear-mode", "on", 2, .device), stamp("health-log-file", "/tmp/x", 9, .device),
                      stamp("default-mode", "passive", 1, .device)]
        let collector = [stamp("default-mode", "challenge", 3, .collector)]
        #expect(PreferenceMerge.merge(device, collector) == [
            stamp("default-mode", "challenge", 3, .collector), stamp("fear-mode", "on", 2, .device),
        ])
    }

    @Test func aNewLocalChangeTakesOneMoreThanAnythingSeen() {
        #expect(PreferenceMerge.nextClock(after: []) == 1)
        #expect(PreferenceMerge.nextClock(after: [stamp("a", "", 3, .device), stamp("b", "", 11, .collector)]) == 12)
    }

    @Test func retriesBackOffFromFiveSecondsToFifteenMinutes() {
        #expect((0...10).map(SyncProtocol.retryDelaySeconds(afterFailures:)) == [0, 5, 10, 20, 40, 80, 160, 320, 640, 900, 900])
    }
}
