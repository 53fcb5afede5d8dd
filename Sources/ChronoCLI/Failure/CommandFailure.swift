import ArgumentParser
import ChronoCore
import ChronoHardware
import ChronoRuntime
import ChronoSimulation
import ChronoStore
import Foundation

/// A failure with a message for the person and the kind of failure it is: printed once as
/// `error: …` on standard error, and the process exits with `status` (docs/EXIT-CODES.md).
public struct CommandFailure: Error, CustomStringConvertible {
    public var description: String
    public var status: ExitStatus

    /// Wraps any error, keeping its words and deciding its exit status from its type.
    public init(_ error: any Error, status: ExitStatus? = nil) {
        if let failure = error as? CommandFailure {
            self = failure
            if let status { self.status = status }
            return
        }
        description = String(describing: error)
        self.status = status ?? ExitStatus.classifying(error)
    }

    public init(message: String, status: ExitStatus = .checkFailed) {
        description = message
        self.status = status
    }
}

extension ExitStatus {
    /// The exit status for an error thrown by a layer below the command line.
    static func classifying(_ error: any Error) -> ExitStatus {
        switch error {
        case let failure as CommandFailure: return failure.status
        case is ValidationError: return .usage
        case let store as StoreError: return classifying(store)
        case is BoardFileError: return .badConfiguration
        case is BoardNotFoundError: return .noInput
        case is GpioError, is SoundError, is TerminalError, is EvdevError: return .deviceUnavailable
        case is HealthLogWriteError: return .ioError
        case is LoopError: return .internalError
        case is ReplayScriptError: return .badInput
        case is IntervalError, is ConfigurationError: return .usage
        case let output as OutputError: return output.status
        case let sync as SyncFailure: return sync.status
        default: return .internalError
        }
    }

    static func classifying(_ error: StoreError) -> ExitStatus {
        switch error {
        case .corrupt, .foreign, .newerSchema: return .storeUnusable
        case .directoryUnusable(_, let reason):
            return reason.contains("Not a directory") || reason.contains("No such file") ? .noInput : .permission
        case .invalidValue, .unknownSession: return .usage
        case .readOnly(_, let reason): return reason.contains("full") ? .ioError : .permission
        case .database(_, let detail):
            let lower = detail.lowercased()
            if lower.contains("locked") || lower.contains("busy") { return .storeBusy }
            if lower.contains("readonly") || lower.contains("read-only") || lower.contains("permission") { return .permission }
            return .ioError
        }
    }
}
