import ChronoStore
import ChronoSync
import Foundation

/// A store in a fresh temporary directory, removed by `remove()`.
struct ScratchStore {
    let directory: String
    let store: ChronoStore

    init() throws {
        var template = Array("/tmp/chrono-cli-test-XXXXXX".utf8CString)
        directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        store = try ChronoStore.open(StoreLocation(directory: directory))
    }

    func set(_ key: SettingKey, _ value: String) throws {
        try store.setSetting(key, to: value, nowUnixSeconds: 1_795_000_000)
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }
}
