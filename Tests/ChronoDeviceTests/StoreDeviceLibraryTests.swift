import ChronoTesting
import ChronoCore
import ChronoHardware
import ChronoRuntime
import ChronoStore
import Foundation
import Testing
@testable import ChronoDevice

/// The daemon's snapshots from the store: live settings through the data-directory watcher, the next
/// configuration, and H(I) assigned by use.
@Suite("The store's device library", .serialized)
struct StoreDeviceLibraryTests {
    static func library(_ scratch: ScratchStore, flags: SessionFlags = SessionFlags()) throws -> StoreDeviceLibrary {
        StoreDeviceLibrary(store: scratch.store, flags: flags, board: try BoardCatalog.standard().load("desktop"), report: { _ in })
    }

    /// Waits (up to `limit` seconds) for `condition`.
    static func eventually(limit: Double = 10, _ condition: () -> Bool) -> Bool {
        let until = Date(timeIntervalSinceNow: limit)
        while !condition() {
            if Date() > until { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return true
    }

    @Test("`settings set` from another connection reaches the snapshot through the watcher, without a restart")
    func watcherAppliesSettings() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        let keeper = SnapshotKeeper(library: try Self.library(scratch))
        #expect(keeper.latest.defaults.gestures.longPress == .milliseconds(1500))
        let watcher = try DataDirectoryWatcher(directory: scratch.directory, prefixes: ["chronoception.sqlite"], onChange: { keeper.refresh() })
        defer { watcher.stop() }
        // Another process's view of the same database: its own connection pool.
        let other = try ChronoStore.open(StoreLocation(directory: scratch.directory))
        try other.setSetting(.longPressMilliseconds, to: "2500", nowUnixSeconds: 1_795_000_000)
        #expect(Self.eventually { keeper.latest.defaults.gestures.longPress == .milliseconds(2500) })
        try other.setSetting(.defaultAttempts, to: "4", nowUnixSeconds: 1_795_000_001)
        #expect(Self.eventually { keeper.latest.nextConfiguration.plannedCount == 4 })
    }

    @Test("After a session the idle tap repeats it with the current settings; a changed default takes over")
    func nextConfiguration() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        let library = try Self.library(scratch)
        _ = library.prepareSnapshot()
        let ran = try SessionConfiguration(mode: .passive, interval: TrainingInterval(seconds: 90), plannedCount: 2)
        let start = SessionStartRecord(sessionID: sid("S1"), configuration: ran, anchor: WallClockAnchor(unixNanoseconds: 1_795_000_000_000_000_000, monotonic: .zero, utcOffsetSeconds: 0),
                                       board: "desktop", soundAudible: false, wallClockSynchronised: true)
        try scratch.store.recordSessionStarted(start)
        library.sessionStarted(start)
        try scratch.set(.longPressMilliseconds, "2200")
        let again = library.prepareSnapshot()
        #expect(again.lastSessionID == sid("S1"))
        #expect(again.nextConfiguration.mode == .passive && again.nextConfiguration.interval.seconds == 90 && again.nextConfiguration.plannedCount == 2)
        #expect(again.nextConfiguration.gestures.longPress == .milliseconds(2200))
        try scratch.set(.defaultInterval, "7m")
        let defaults = library.prepareSnapshot()
        #expect(defaults.nextConfiguration.interval.seconds == 420 && defaults.nextConfiguration.mode == .challenge)
    }

    @Test("H(I) is assigned by use: the unused built-in 5m 0s does not keep S; the first used interval gets it")
    func patternsByUse() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        let library = try Self.library(scratch)
        let first = library.prepareSnapshot()
        #expect(first.patterns.pattern(for: .builtInPreset) != nil, "offered with the pattern it would get")
        #expect(try scratch.store.savedPatternBook().assignments.isEmpty, "nothing saved before any use")
        let used = try TrainingInterval(seconds: 90)
        let configuration = try SessionConfiguration(mode: .challenge, interval: used)
        try scratch.store.recordSessionStarted(SessionStartRecord(
            sessionID: sid("S1"), configuration: configuration,
            anchor: WallClockAnchor(unixNanoseconds: LocalTimeZone.nowUnixNanoseconds() / 1_000_000_000 * 1_000_000_000, monotonic: .zero, utcOffsetSeconds: 0),
            board: "desktop", soundAudible: false, wallClockSynchronised: true))
        _ = library.prepareSnapshot()
        let saved = try scratch.store.savedPatternBook().assignments
        #expect(saved == [used: IntervalPatternBook.candidates[0]])
    }
}
