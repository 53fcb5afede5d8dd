import ArgumentParser
import ChronoStore

/// A failure with a message for the person and the kind of failure it is: printed once as
/// `error: …` on standard error, and the process exits with `status` (docs/EXIT-CODES.md).
public struct CommandFailure: Error, CustomStringConvertible {
    public var description: String
    public var status: ExitStatus
    /// Lines printed below the one `error:` line (a list of what is accepted, one item a line), as
    /// usage follows a usage error; empty for none.
    public var detail: [String] = []

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

    public init(message: String, status: ExitStatus = .checkFailed, detail: [String] = []) {
        description = message
        self.status = status
        self.detail = detail
    }
}

/// An error that knows its exit status. The layers below the command line know nothing of exit
/// statuses, so the program that meets their errors conforms them in its own target (ChronoCLI for
/// the drivers, the loop and sync); an error of no conforming type is a bug (`internalError`).
public protocol ExitStatusReporting: Error {
    var exitStatus: ExitStatus { get }
}

extension OutputError: ExitStatusReporting {
    public var exitStatus: ExitStatus { status }
}

extension ExitStatus {
    /// The exit status for an error thrown by a layer below the command line. The store's errors are
    /// decided here: both programs open a store in a data directory.
    public static func classifying(_ error: any Error) -> ExitStatus {
        switch error {
        case let failure as CommandFailure: return failure.status
        case is ValidationError: return .usage
        case let store as StoreError: return classifying(store)
        case is HealthLogWriteError: return .ioError
        case let reporting as any ExitStatusReporting: return reporting.exitStatus
        default: return .internalError
        }
    }

    public static func classifying(_ error: StoreError) -> ExitStatus {
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
