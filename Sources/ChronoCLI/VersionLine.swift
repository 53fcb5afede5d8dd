import ChronoCommandLine
import ChronoHardware

extension Version {
    /// `chronoception --version`: the release and the libgpiod API this binary was built against (v1 on
    /// a Bookworm system build, v2 in the release .deb, which links libgpiod 2.x in).
    static var line: String { line(program: "chronoception") + " (libgpiod API v\(LibgpiodAPI.version))" }
}
