/// What `chronoception --version` and `chronoception-collector --version` print. scripts/package-pi reads
/// `packageVersion` to name the .debs (`chronoception_VERSION-1_ARCH.deb`), so the installed package and
/// the binary inside it always agree. The device adds the libgpiod API its drivers were built against
/// (ChronoCLI's `Version.line`); the collector has no drivers.
public enum Version {
    /// The release version (the .debs' upstream version).
    public static let packageVersion = "0.1.0"

    /// `PROGRAM VERSION`: the line for a program of the release.
    public static func line(program: String) -> String { "\(program) \(packageVersion)" }
}
