import ChronoCore
import Foundation
import Testing
@testable import ChronoDevice

/// The update record's file as root and the daemon read it: a record written is read back the same;
/// anything else at its path — a link, a FIFO, a folder, a file too long or not UTF-8 — is refused in
/// words that name the file and the fix, without following it or waiting on it.
@Suite("The update record's file")
struct UpdateRecordFileTests {
    static let started = WallTime(unixNanoseconds: 1_796_000_000_000_000_000, utcOffsetSeconds: 0)

    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("update-record-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("none, then the record written, read back the same")
    func roundTrip() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = UpdateRecordFile(directory: directory)
        #expect(file.read() == .none)
        let record = UpdateRecord(phase: .installing, fromVersion: ReleaseVersion("0.1.0")!, toVersion: ReleaseVersion("0.2.0")!,
                                  fromSlot: .a, started: Self.started, progress: 35)
        try file.write(record)
        #expect(file.read() == .record(record))
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o644)
    }

    @Test("a link, a FIFO, a folder, more than 4 KiB, not UTF-8: refused, naming the file")
    func refused() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = UpdateRecordFile(directory: directory)
        let notRegular = "\(file.path) is not a regular file; remove it"

        try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: "/etc/hostname")
        #expect(file.read() == .refused(notRegular))
        try FileManager.default.removeItem(atPath: file.path)

        // A FIFO with no writer would block a plain open until one came: the boot unit must not hang.
        #expect(mkfifo(file.path, 0o644) == 0)
        #expect(file.read() == .refused(notRegular))
        try FileManager.default.removeItem(atPath: file.path)

        try FileManager.default.createDirectory(atPath: file.path, withIntermediateDirectories: false)
        #expect(file.read() == .refused(notRegular))
        try FileManager.default.removeItem(atPath: file.path)

        FileManager.default.createFile(atPath: file.path, contents: Data(repeating: 0x20, count: 4097))
        #expect(file.read() == .refused("\(file.path) is longer than 4 KiB; remove it"))

        FileManager.default.createFile(atPath: file.path, contents: Data([0x7B, 0xFF, 0xFE, 0x7D]))
        #expect(file.read() == .refused("\(file.path) cannot be read as UTF-8 text; remove it"))

        FileManager.default.createFile(atPath: file.path, contents: Data("{\"format\":1}".utf8))
        guard case .refused(let reason) = file.read() else { Issue.record("an incomplete record was accepted"); return }
        #expect(reason.hasPrefix("chronoception-update.json: ") && reason.hasSuffix("(\(file.path)); remove it"))
    }
}
