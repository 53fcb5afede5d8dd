import ChronoCommandLine
import ChronoCore
import ChronoDevice
import ChronoHardware
import ChronoRuntime
import ChronoSimulation

// The exit status of each error from the device's layers (docs/EXIT-CODES.md). Those layers know
// nothing of exit statuses and the shared command line (ChronoCommandLine) cannot import them, so
// the device's program, the only one that meets them, says it here.

extension BoardFileError: ExitStatusReporting { public var exitStatus: ExitStatus { .badConfiguration } }
extension BoardNotFoundError: ExitStatusReporting { public var exitStatus: ExitStatus { .noInput } }
extension GpioError: ExitStatusReporting { public var exitStatus: ExitStatus { .deviceUnavailable } }
extension SoundError: ExitStatusReporting { public var exitStatus: ExitStatus { .deviceUnavailable } }
extension TerminalError: ExitStatusReporting { public var exitStatus: ExitStatus { .deviceUnavailable } }
extension EvdevError: ExitStatusReporting { public var exitStatus: ExitStatus { .deviceUnavailable } }
extension LoopbackCheck.Failure: ExitStatusReporting {
    public var exitStatus: ExitStatus {
        switch kind {
        case .boardFile: .badConfiguration
        case .device: .deviceUnavailable
        case .stopped: .checkFailed
        }
    }
}
extension LoopError: ExitStatusReporting { public var exitStatus: ExitStatus { .internalError } }
extension ReplayScriptError: ExitStatusReporting { public var exitStatus: ExitStatus { .badInput } }
extension IntervalError: ExitStatusReporting { public var exitStatus: ExitStatus { .usage } }
extension ConfigurationError: ExitStatusReporting { public var exitStatus: ExitStatus { .usage } }
extension SyncFailure: ExitStatusReporting { public var exitStatus: ExitStatus { status } }
