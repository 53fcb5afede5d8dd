import ChronoCore
@testable import ChronoStore
import Foundation
import GRDB
import Testing

@Suite("Boundary firing repair")
struct BoundaryFiringRepairTests {
    @Test("a stall-era row with a boundary 'fired' before it was due reads again, with that instant forgotten and the others kept")
    func repairsStallRows() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let id = "7D3B1E6A-0C2F-4B8E-9A51-3E2D4C5B6A70"
        do {
            let store = try ChronoStore.openForTest(directory)
            try store.recordSessionFinished(Sample.finish(id, Sample.passive(planned: 3, done: 3)), nowUnixNanoseconds: Sample.now)
            // What the stall bug wrote: boundary 2 with boundary 1's instant, as if it fired 60 s early;
            // and a store from before this migration.
            try store.write { db in
                try db.execute(sql: "UPDATE passive_boundary SET fired_mono_ns = fired_mono_ns - 60000000000 WHERE session_id = ? AND boundary_index = 2",
                               arguments: [id])
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: [BoundaryFiringRepair.migrationIdentifier])
            }
        }
        let reopened = try ChronoStore.openForTest(directory)
        let session = try reopened.session(id: id)
        let due = Sample.passive(planned: 3, done: 3).boundaries.map(\.due)
        #expect(session.boundariesFired == [due[0] + .milliseconds(3), nil, due[2] + .milliseconds(3)])
        #expect(try reopened.appliedMigrations().contains(BoundaryFiringRepair.migrationIdentifier))
    }
}
