import ChronoCore
import ChronoSync
import Foundation
import Testing

/// The sync-batch fuzzer's committed seed must be a batch a collector accepts, or the fuzzer only ever
/// explores the decoder's refusals.
@Suite("Fuzz seeds")
struct FuzzSeedTests {
    @Test("the sync-batch seed decodes and every session in it passes the core's rules")
    func syncBatchSeed() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../fuzz/corpus/sync-batch/valid-batch.json").standardized
        let batch = try JSONDecoder().decode(SyncBatch.self, from: Data(contentsOf: path))
        #expect(batch.sessions.count == 2)
        for session in batch.sessions { _ = try session.validatedOutcome() }
        #expect(batch.preferences.allSatisfy { PreferenceMerge.acceptsClock($0.clock) })
    }

    /// The receipt fuzzer's seeds: the valid ones pass `SyncReplyValidation`, the past-bound one does not.
    @Test("the receipt seeds: a receipt and a grant the validator takes, and one past its bounds")
    func receiptSeeds() throws {
        func seed(_ name: String) throws -> Data {
            try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../fuzz/corpus/receipt/\(name)").standardized)
        }
        let batch = try SyncReplyValidationTests.batch(sessions: 2, through: 7)
        let receipt = try JSONDecoder().decode(SyncReceipt.self, from: seed("valid-receipt.json"))
        #expect(throws: Never.self) { try SyncReplyValidation.validated(receipt, for: batch) }
        let grant = try JSONDecoder().decode(EnrolmentGrant.self, from: seed("valid-grant.json"))
        #expect(throws: Never.self) { try SyncReplyValidation.validated(grant) }
        let past = try JSONDecoder().decode(SyncReceipt.self, from: seed("past-bounds.json"))
        let through2 = try SyncReplyValidationTests.batch(sessions: 2, through: 2)
        #expect(throws: SyncReplyError.self) { try SyncReplyValidation.validated(past, for: through2) }
        #expect(try JSONDecoder().decode(SyncReceipt.self, from: seed("with-study.json")).study.map { try $0.validated() } != nil)
    }
}
