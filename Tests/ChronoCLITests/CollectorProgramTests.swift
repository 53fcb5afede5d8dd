import ChronoCommandLine
import Testing
@testable import ChronoCLI

/// `chronoception collector …` finds the collector's own program beside the executable, then on PATH,
/// and says which package to install when it is nowhere.
@Suite struct CollectorProgramTests {
    @Test func theFolderOfTheExecutableComesFirstThenPATHWithoutRepeats() {
        #expect(CollectorProgram.candidates(executablePath: "/usr/bin/chronoception", path: "/usr/local/bin:/usr/bin:relative:/bin")
                == ["/usr/bin/chronoception-collector", "/usr/local/bin/chronoception-collector", "/bin/chronoception-collector"])
        #expect(CollectorProgram.candidates(executablePath: "/work/.build/debug/chronoception", path: nil)
                == ["/work/.build/debug/chronoception-collector"])
        #expect(CollectorProgram.candidates(executablePath: nil, path: "/opt/bin") == ["/opt/bin/chronoception-collector"])
    }

    @Test func aMissingCollectorNamesThePackageAndTheBuildCommand() {
        let failure = CollectorProgram.notInstalled(executablePath: "/usr/bin/chronoception")
        #expect(failure.status == .deviceUnavailable)
        #expect(failure.description.contains("chronoception-collector, which is not installed here (not in /usr/bin nor on PATH)"))
        #expect(failure.description.contains("chronoception-collector_\(Version.packageVersion)-1_ARCH.deb"))
        #expect(failure.description.contains("sudo scripts/package-pi --package collector"))
        #expect(failure.description.contains("swift build --product chronoception-collector"))
    }
}
