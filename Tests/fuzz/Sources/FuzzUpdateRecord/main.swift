import CFuzzerDriver
import Glibc

// SwiftPM gives the executable an entry point of its own, so libFuzzer's main may or may not be the one
// linked: this main hands the command line (libFuzzer's flags and corpus directories, see
// Tests/fuzz/run) to libFuzzer's driver, and the C entry below serves libFuzzer's main if that wins.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { fuzzUpdateRecord(data, size) }

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzUpdateRecord(data, size) })
