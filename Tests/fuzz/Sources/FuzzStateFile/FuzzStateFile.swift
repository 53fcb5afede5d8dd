import Foundation
import ChronoRuntime

/// The fuzz function: the state file's text as `status` reads and words it. Nothing may trap.
func fuzzStateFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any] else { return 0 }
    for line in StateFileText.lines(object) {
        precondition(!line.isEmpty)
    }
    return 0
}
