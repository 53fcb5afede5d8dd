import ChronoHardware

/// What `chronoception --version` prints: the release and the libgpiod API this binary was built against.
/// scripts/package-pi reads `packageVersion` to name the .deb (`chronoception_VERSION-1_ARCH.deb`), so the
/// installed package and the binary inside it always agree.
enum Version {
    /// The release version (the .deb's upstream version).
    static let packageVersion = "0.1.0"

    /// One line: the version and the libgpiod API (v1 on a Bookworm system build, v2 in the release .deb,
    /// which links libgpiod 2.x in).
    static var line: String { "chronoception \(packageVersion) (libgpiod API v\(LibgpiodAPI.version))" }
}
