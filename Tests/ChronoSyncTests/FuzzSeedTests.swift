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
}
