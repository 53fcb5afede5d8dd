import ChronoHardware

/// What `chronoception --version` (and `chronoception-collector --version`) prints: the release and the
/// libgpiod API this binary was built against. scripts/package-pi reads `packageVersion` to name the .debs
/// (`chronoception_VERSION-1_ARCH.deb`), so the installed package and the binary inside it always agree.
public enum Version {
    /// The release version (the .debs' upstream version).
    public static let packageVersion = "0.1.0"

    /// One line: the version and the libgpiod API (v1 on a Bookworm system build, v2 in the release .deb,
    /// which links libgpiod 2.x in).
    static var line: String { line(program: "chronoception") }

    /// The same line for another program of the release.
    public static func line(program: String) -> String { "\(program) \(packageVersion) (libgpiod API v\(LibgpiodAPI.version))" }
}
