import Testing
@testable import ChronoCore

@Suite("Frecency ranking of presets")
struct FrecencyTests {
    let now: Int64 = 1_800_000_000
    let day: Int64 = 86_400

    @Test("a use loses half its weight every 14 days")
    func halfLife() {
        #expect(Frecency.weight(ageSeconds: 0) == 1)
        #expect(abs(Frecency.weight(ageSeconds: 14 * 86_400) - 0.5) < 1e-15)
        #expect(abs(Frecency.weight(ageSeconds: 28 * 86_400) - 0.25) < 1e-15)
        #expect(abs(Frecency.weight(ageSeconds: 7 * 86_400) - 0.5.squareRoot()) < 1e-15)
        #expect(Frecency.weight(ageSeconds: -100) == 1)
    }

    @Test("the built-in 5m 0s is always listed")
    func builtInListed() {
        let ranked = Frecency.rank(uses: [], nowUnixSeconds: now)
        #expect(ranked.map(\.interval) == [.builtInPreset])
    }

    @Test("frequency and recency together, deterministic order")
    func ranking() throws {
        let a = try TrainingInterval(seconds: 60), b = try TrainingInterval(seconds: 90), c = try TrainingInterval(seconds: 600)
        var uses = (0..<4).map { PresetUse(interval: a, usedAtUnixSeconds: now - 30 * day - Int64($0)) }  // 4 × ~0.227
        uses.append(PresetUse(interval: b, usedAtUnixSeconds: now - day))  // 0.95
        uses.append(PresetUse(interval: c, usedAtUnixSeconds: now - 60 * day))  // 0.05
        let ranked = Frecency.rank(uses: uses, nowUnixSeconds: now)
        #expect(ranked.map(\.interval) == [b, a, c, .builtInPreset])
        #expect(ranked[1].useCount == 4)
        #expect(Frecency.rank(uses: uses.reversed(), nowUnixSeconds: now) == ranked)
    }

    @Test("ties go to the more recent, then the shorter interval")
    func ties() throws {
        let a = try TrainingInterval(seconds: 60), b = try TrainingInterval(seconds: 30)
        let ranked = Frecency.rank(uses: [PresetUse(interval: a, usedAtUnixSeconds: now), PresetUse(interval: b, usedAtUnixSeconds: now)], nowUnixSeconds: now)
        #expect(ranked.prefix(2).map(\.interval) == [b, a])
    }

    @Test("pow2 matches exact powers")
    func powers() {
        #expect(pow2(0) == 1)
        #expect(pow2(-1) == 0.5)
        #expect(pow2(-10) == 1.0 / 1024)
        #expect(abs(pow2(-0.5) - 0.7071067811865476) < 1e-15)
    }
}
