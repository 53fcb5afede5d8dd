import ChronoCommandLine
import ChronoCore
import ChronoSync
import Foundation

/// Why a sync exchange failed, as one line naming the problem and the fix (`sync now` prints it,
/// `sync status` shows the last one) and an exit status (docs/EXIT-CODES.md).
public struct SyncFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds `sync status` tells apart; the raw value is what the store keeps.
    enum Kind: String, Sendable, CaseIterable {
        /// The collector could not be reached: refused connection, no route, no DNS answer, a timeout.
        case noRoute = "no_route"
        /// 401: the device's key is unknown or revoked.
        case keyRefused = "key_refused"
        /// 403 at enrolment: the one-time code is unknown, used or expired.
        case codeRefused = "code_refused"
        /// 507: the collector's store is full or read-only.
        case collectorFull = "collector_full"
        /// 409: the two ends speak different protocol versions.
        case protocolMismatch = "protocol_mismatch"
        /// 413 for a single session, or 422: the collector refuses what the device sends.
        case refusedBatch = "refused_batch"
        /// An answer that is not the sync protocol: the URL points at something else.
        case notACollector = "not_a_collector"
        /// A reply in the protocol's form that the device's validator refuses (`SyncReplyValidation`):
        /// counts past the batch, a clock out of range, a key with a line break. Nothing of it is kept.
        case invalidReply = "invalid_reply"
        /// `https://`: the TLS handshake failed (an untrusted or mismatched certificate, no TLS there).
        case tlsFailed = "tls_failed"
        /// 409 at enrolment: the collector has this device ID enrolled already (a copied data
        /// directory, or the device itself enrolling again without being revoked).
        case deviceEnrolled = "device_enrolled"
        /// The data directory's device ID is bound to another machine: it was copied, and this machine
        /// does not push as the device it came from.
        case copiedDataDirectory = "copied_data_directory"
    }

    var kind: Kind
    /// The problem in the collector's or the network's words.
    var detail: String

    var fix: String {
        switch kind {
        case .noRoute: return "check the collector is running and reachable from here (sessions stay pending and are sent when it is)"
        case .keyRefused: return "the collector no longer knows this device: ask for a new code (`chronoception-collector enrol NAME`), then `chronoception sync remove` and `chronoception sync add URL --code CODE`"
        case .codeRefused: return "ask the collector for a new code (`chronoception-collector enrol NAME`) and run `sync add` again"
        case .collectorFull: return "the collector's disk or database is full or read-only: free space there; sessions stay pending here"
        case .protocolMismatch: return "the device and the collector run different Chronoception versions: upgrade the older one"
        case .refusedBatch: return "a session the collector will not take stays pending; report this with `chronoception sync status`"
        case .notACollector: return "check the URL points at `chronoception collector` (http://HOST:PORT)"
        case .invalidReply: return "nothing of that reply was kept and sessions stay pending; check the URL points at a Chronoception collector of this version (`chronoception sync status` shows the collector), and report it to whoever runs the collector"
        case .tlsFailed: return "the collector's certificate must name the URL's host and be signed by a CA this device trusts (/etc/ssl/certs); or use http:// on a trusted network"
        case .deviceEnrolled: return "if this data directory was copied from that device, enrol this machine as a new device: `chronoception sync add URL --code CODE --as-new-device`; if it is that device itself, revoke it on the collector first (`chronoception-collector revoke NAME`), then `sync add` again"
        case .copiedDataDirectory: return "`chronoception sync add URL --code CODE` (a new code from `chronoception-collector enrol NAME`) enrols this machine as a new device, with a new device ID; the device it was copied from is not affected"
        }
    }

    public var description: String { "sync: \(detail); \(fix)." }

    /// For scripts: 68 unreachable, 77 key or code refused, 79 the collector refuses the batch.
    public var status: ExitStatus {
        switch kind {
        case .noRoute: return .collectorUnreachable
        case .keyRefused, .codeRefused, .deviceEnrolled, .copiedDataDirectory: return .permission
        case .collectorFull, .protocolMismatch, .refusedBatch, .notACollector, .invalidReply, .tlsFailed: return .collectorRefused
        }
    }

    /// The most characters of a collector's message kept in a failure (it is stored for `sync status`
    /// and printed: a hostile collector's megabyte of text is neither).
    static let maximumMessageCharacters = 300

    /// The first sentence of a collector's message, without its closing full stop, shortened and with
    /// controls escaped (the message is the collector's text, from outside).
    static func problemSentence(_ message: String) -> String {
        let first = message.components(separatedBy: ". ").first ?? message
        let sentence = first.hasSuffix(".") ? String(first.dropLast()) : first
        let safe = TerminalSafeText.sanitized(sentence, keepNewlines: false)
        return safe.count <= maximumMessageCharacters ? safe : String(safe.prefix(maximumMessageCharacters)) + "…"
    }

    /// The failure for a collector's error answer (`{"error": {"code", "message"}}`) or a bare HTTP status.
    static func classifying(httpStatus: Int, code: String?, message: String?, during what: String) -> SyncFailure {
        // The collector's first sentence names the problem; the device adds its own fix (`fix`), so
        // the collector's advice is not repeated beside it.
        let said = message.map { ": \(problemSentence($0))" } ?? ""
        switch code.flatMap(SyncRefusalCode.init(rawValue:)) {
        case .keyRefused?: return SyncFailure(kind: .keyRefused, detail: "the collector refused this device's key\(said)")
        case .codeRefused?: return SyncFailure(kind: .codeRefused, detail: "the collector refused the enrolment code\(said)")
        case .protocolMismatch?: return SyncFailure(kind: .protocolMismatch, detail: "the collector speaks another protocol version\(said)")
        case .deviceEnrolled?: return SyncFailure(kind: .deviceEnrolled, detail: "the collector refused the enrolment\(said)")
        case .collectorFull?: return SyncFailure(kind: .collectorFull, detail: "the collector cannot store anything\(said)")
        case .batchTooLarge?: return SyncFailure(kind: .refusedBatch, detail: "the collector refused a single session as too large\(said)")
        case .invalidBatch?: return SyncFailure(kind: .refusedBatch, detail: "the collector refused the batch as invalid\(said)")
        case nil:
            switch httpStatus {
            case 401: return SyncFailure(kind: .keyRefused, detail: "the collector refused this device's key (HTTP 401)")
            case 403: return SyncFailure(kind: .codeRefused, detail: "the collector refused the enrolment code (HTTP 403)")
            case 409: return SyncFailure(kind: .protocolMismatch, detail: "the collector speaks another protocol version (HTTP 409)")
            case 413: return SyncFailure(kind: .refusedBatch, detail: "the collector refused a single session as too large (HTTP 413)")
            case 507: return SyncFailure(kind: .collectorFull, detail: "the collector cannot store anything (HTTP 507)")
            case 502, 503, 504: return SyncFailure(kind: .noRoute, detail: "the collector is not answering behind its proxy (HTTP \(httpStatus)) during \(what)")
            default: return SyncFailure(kind: .notACollector, detail: "the answer to \(what) is not the sync protocol (HTTP \(httpStatus))")
            }
        }
    }
}
