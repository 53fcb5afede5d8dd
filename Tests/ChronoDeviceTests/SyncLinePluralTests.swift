import Testing
@testable import ChronoDevice

/// The push summary that `sync now` and the daemon print counts sessions in good English.
@Suite struct SyncLinePluralTests {
    @Test func oneSessionIsSingular() {
        #expect(SyncExchange.Summary(accepted: 1, duplicates: 0, pending: 0).line == "sent 1 session (1 new, 0 already there); 0 pending")
        #expect(SyncExchange.Summary(accepted: 0, duplicates: 1, pending: 2).line == "sent 1 session (0 new, 1 already there); 2 pending")
        #expect(SyncExchange.Summary(accepted: 1, duplicates: 1, pending: 1).line == "sent 2 sessions (1 new, 1 already there); 1 pending")
    }
}
