/// What the first-boot file asks for, as typed values: each key the file gave with a valid value,
/// `nil` (or empty) where it gave none or a refused one. Filled by `FirstBootFile.read`; turned into
/// file changes by `FirstBootPlan`.
public struct FirstBootSettings: Equatable, Sendable {
    /// The host name the image has until the file names another.
    public static let defaultHostname = "chronoception"

    /// ISO 3166-1 alpha-2, upper case: the Wi-Fi regulatory domain.
    public var wifiCountry: String?
    /// The network to join, when both its name and its passphrase (or key) are valid.
    public var wifi: FirstBootWiFi?
    /// The passphrase's line says it was applied on an earlier boot and removed: keep the Wi-Fi
    /// configuration written then (the file no longer holds what is needed to write it again).
    public var keepsEarlierWiFi = false
    /// The host name given (lower case); nil: `defaultHostname`.
    public var hostname: String?
    /// The board given; nil: not given (the device's setting is left as it is).
    public var board: FirstBootBoard?
    /// The IANA time zone given, as named under zoneinfo; nil: left as it is.
    public var timezone: String?
    /// The SSH public keys given (each valid one; SSH is on when there is at least one).
    public var sshKeys: [SSHPublicKey] = []
    /// An SSH key's line says keys were applied on an earlier boot and removed: SSH stays on with
    /// the keys written then.
    public var keepsEarlierSSH = false
    /// Whether the companion listens on the network; nil: not given (off).
    public var companionNetwork: Bool?

    public init() {}

    /// The host name the device gets.
    public var effectiveHostname: String { hostname ?? Self.defaultHostname }
    /// Whether SSH is on after this file: a key given, or keys kept from an earlier boot.
    public var sshEnabled: Bool { !sshKeys.isEmpty || keepsEarlierSSH }
    /// Whether the companion listens beyond loopback (off unless the file says on).
    public var companionListens: Bool { companionNetwork ?? false }
}

/// The Wi-Fi network the file names, with what proves the right to join it.
public struct FirstBootWiFi: Equatable, Sendable {
    /// The network's name (SSID), 1 to 32 bytes of UTF-8.
    public var ssid: String
    public var credential: Credential

    public enum Credential: Equatable, Sendable {
        /// A WPA2 passphrase: 8 to 63 printable ASCII characters.
        case passphrase(String)
        /// The 256-bit key itself, as 64 lowercase hex digits.
        case key(String)
    }

    public init(ssid: String, credential: Credential) {
        self.ssid = ssid
        self.credential = credential
    }

    /// The key wpa_supplicant joins with: the passphrase run through WPA2's PBKDF2, or the key given.
    public var pskHex: String {
        switch credential {
        case .passphrase(let passphrase): return WPAPassphrase.pskHex(passphrase: passphrase, ssid: Array(ssid.utf8))
        case .key(let key): return key
        }
    }
}

/// The board the file names.
public enum FirstBootBoard: Equatable, Sendable {
    /// `auto`: detected from the device tree each time the service starts.
    case detected
    /// A board file by name.
    case named(String)
}

/// One problem in the first-boot file: where (the line, when there is one), which key, and a
/// sentence saying what is wrong and what to write instead. Printed as `line 4: wifi_country 'UK'
/// is not a country code; use GB`.
public struct FirstBootProblem: Equatable, Sendable, CustomStringConvertible {
    /// 1-based line number; nil for a problem of the file as a whole (a missing key).
    public var line: Int?
    /// The key concerned, as written (or the key that is missing); nil for a line that is no setting.
    public var key: String?
    /// What is wrong and the fix, without the line number.
    public var message: String

    public init(line: Int?, key: String?, message: String) {
        self.line = line
        self.key = key
        self.message = message
    }

    public var description: String { line.map { "line \($0): \(message)" } ?? message }
}
