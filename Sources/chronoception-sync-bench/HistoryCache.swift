import ChronoSync
import Foundation
import NIOCore

/// Generated device histories kept on disk as ready-to-send request bodies (one batch per line: its
/// session count, a space, its JSON),
/// so a run spends its time pushing, not simulating. A device's files are written under a temporary
/// name and renamed, so an interrupted generation leaves no half file behind.
struct HistoryCache {
    /// Bump when the generator's output changes, so old caches are not reused.
    static let version = 1
    let directory: URL

    init(root: String, completedPerDevice: Int) {
        directory = URL(fileURLWithPath: root).appendingPathComponent("v\(Self.version)-completed\(completedPerDevice)")
    }

    func file(_ number: Int, _ part: String) -> URL {
        directory.appendingPathComponent(String(format: "device-%05d.%@.jsonl", number, part))
    }

    func has(_ number: Int) -> Bool {
        FileManager.default.fileExists(atPath: file(number, "offline").path)
    }

    func store(_ history: DeviceHistory, number: Int) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        // `main` first: `has` looks for `offline`, which is renamed last.
        for (part, batches) in [("main", history.main), ("offline", history.offline)] {
            var data = Data()
            for batch in batches {
                data.append(contentsOf: "\(batch.sessions.count) ".utf8)
                data.append(try encoder.encode(batch))
                data.append(0x0A)
            }
            let final = file(number, part)
            let temporary = final.appendingPathExtension("partial")
            try data.write(to: temporary)
            guard rename(temporary.path, final.path) == 0 else {
                throw CacheError(message: "cannot rename \(temporary.path) to \(final.path): errno \(errno)")
            }
        }
    }

    /// The request bodies of one part of a device's history, in order, with their session counts.
    func batches(_ number: Int, _ part: String) throws -> [EncodedBatch] {
        let data = try Data(contentsOf: file(number, part))
        return try data.split(separator: 0x0A).map { line in
            guard let space = line.firstIndex(of: 0x20), let count = Int(String(decoding: line[..<space], as: UTF8.self)) else {
                throw CacheError(message: "\(file(number, part).path) is damaged: delete it and run again")
            }
            return EncodedBatch(sessions: count, body: ByteBuffer(bytes: line[line.index(after: space)...]))
        }
    }
}

/// A batch ready to send: its body and how many sessions it carries.
struct EncodedBatch: Sendable {
    var sessions: Int
    var body: ByteBuffer
}

struct CacheError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
