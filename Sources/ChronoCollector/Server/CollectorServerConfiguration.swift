import ChronoAPI
import ChronoStore

/// Where the collector listens and whom it trusts.
public struct CollectorServerConfiguration: Sendable {
    /// The collector's default TCP port (the device API's is 8737).
    public static let defaultPort = 8738

    public var socketPath: String?
    /// Port 0 takes a free port (tests).
    public var tcp: TCPAddress?
    /// Who reads the collector's own API without a key (the sync routes have their own credentials).
    public var localTrust: LocalTrust
    public var stopOnSignals: Bool
    /// The wall clock in Unix nanoseconds (enrolment expiry, last seen, progress windows).
    public var now: @Sendable () -> Int64
    /// The local UTC offset for progress's "today".
    public var utcOffsetSeconds: @Sendable () -> Int
    /// Refused enrolment attempts (a wrong, used or expired code; a malformed request) admitted per
    /// minute from one address, and from everywhere together. Attempts that enrol a device are free.
    public var refusedEnrolmentsPerMinutePerAddress = 10
    public var refusedEnrolmentsPerMinute = 120
    /// How many connections the collector holds at once, per remote address, remote in all and the
    /// owner's; nil: derived from the open-file limit when the server is made (`ConnectionLimits`).
    public var connectionLimits: ConnectionLimits?
    /// The monotonic clock in nanoseconds that times failed-authentication lockouts; nil: the
    /// process's own. Tests freeze it so `Retry-After` is an exact figure.
    public var lockoutClock: (@Sendable () -> Int64)?

    public init(socketPath: String?, tcp: TCPAddress?, localTrust: LocalTrust = .socketAndLoopback, stopOnSignals: Bool = false,
                now: @escaping @Sendable () -> Int64 = { LocalTimeZone.nowUnixNanoseconds() },
                utcOffsetSeconds: @escaping @Sendable () -> Int = { 0 }) {
        self.socketPath = socketPath
        self.tcp = tcp
        self.localTrust = localTrust
        self.stopOnSignals = stopOnSignals
        self.now = now
        self.utcOffsetSeconds = utcOffsetSeconds
    }
}
