import ChronoCore

/// The fuzz function: a file's text as the update record's validator reads it (`UpdateRecord(fileText:)`),
/// the same text as `rauc info`'s JSON about a bundle (`BundleInfo(raucJSON:)`), and each of its lines
/// as a line of `rauc install`'s progress (`RaucProgressLine`). Nothing may trap;
/// a record that is accepted is written back as a file the validator accepts again, unchanged from then on.
func fuzzUpdateRecord(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let record = try? UpdateRecord(fileText: text) {
        guard let again = try? UpdateRecord(fileText: record.fileText) else {
            preconditionFailure("a record the validator accepted was written as a file it refuses")
        }
        precondition(again.fileText == record.fileText, "the record's file changed when read back")
        for running in [record.fromVersion, record.toVersion] { precondition(!record.line(running: running).isEmpty) }
    }
    if let info = try? BundleInfo(raucJSON: text) {
        precondition(!info.compatible.isEmpty)
        _ = info.refusal(compatible: "chronoception-raspi-arm64", running: info.version, allowDowngrade: false)
    }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if let percent = RaucProgressLine.percent(String(line)) { precondition((0...100).contains(percent)) }
    }
    return 0
}
