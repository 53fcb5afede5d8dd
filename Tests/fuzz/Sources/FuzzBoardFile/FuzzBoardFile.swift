import ChronoHardware

/// The fuzz function: a board file's text as `--board FILE` and `board show/check` read it. Nothing may
/// trap; every refusal must say something.
func fuzzBoardFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        _ = try BoardFileParser.parse(text, file: "/fuzz/fuzz-board.yaml")
    } catch {
        precondition(!error.description.isEmpty, "a board file refusal with no message")
    }
    return 0
}
