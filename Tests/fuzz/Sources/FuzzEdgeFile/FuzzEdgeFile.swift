import ChronoCore
import ChronoSimulation

/// The fuzz function: an edge file as `replay` reads it. The first byte picks the session (mode, interval,
/// count, auto-start, sound), the rest is the file. Whatever parses runs through the real engine and the
/// report, as `replay` does; nothing may trap.
func fuzzEdgeFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let selector = bytes.first else { return 0 }
    guard let text = String(validating: bytes.dropFirst(), as: UTF8.self) else { return 0 }
    guard let script = try? ReplayScript.parse(text) else { return 0 }

    var previous = Int64.min
    for event in script.events {
        let at = event.instant.nanoseconds
        precondition(at >= previous && at >= 0, "events out of order or negative after parsing")
        previous = at
    }

    let modes: [SessionMode] = [.challenge, .fear, .passive]
    let mode = modes[Int(selector % 3)]
    let seconds = [10, 60, 7259][Int(selector / 3 % 3)]
    let count = mode.usesAttempts ? 1 + Int(selector / 9 % 3) : 1 + Int(selector / 9 % 3) * 3
    guard let interval = try? TrainingInterval.parse(String(seconds)),
          let configuration = try? SessionConfiguration(
            mode: mode, interval: interval, plannedCount: count,
            timing: SessionTiming(autoStartNextAttempt: selector & 0x40 != 0)) else {
        preconditionFailure("the fuzzer's own configuration was refused")
    }
    let soundAudible = selector & 0x80 == 0
    let transcript = VirtualClock.run(configuration: configuration, soundAudible: soundAudible, inputs: script.events)
    let anchor = WallClockAnchor(unixNanoseconds: 1_795_000_000_000_000_000, monotonic: MonotonicInstant(nanoseconds: 0), utcOffsetSeconds: 3600)
    let report = ReplayReport.build(
        transcript: transcript, configuration: configuration, soundAudible: soundAudible,
        anchor: anchor, sessionID: "00000000-0000-4000-8000-000000000000", device: "fuzz")
    precondition(!report.compactText.isEmpty)
    return 0
}
