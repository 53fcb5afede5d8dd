import ChronoCore
import Testing

@Suite("Path splitting") struct PathTextTests {
    @Test func splitsAtTheLastSlash() {
        #expect(PathText.directory(of: "/var/lib/chronoception/out.csv") == "/var/lib/chronoception")
        #expect(PathText.lastComponent(of: "/var/lib/chronoception/out.csv") == "out.csv")
        #expect(PathText.directory(of: "/out.csv") == "/")
        #expect(PathText.directory(of: "out.csv") == ".")
    }

    @Test("a name of one two-byte character (Foundation traps on it)") func oneTwoByteCharacter() {
        #expect(PathText.directory(of: "é") == ".")
        #expect(PathText.lastComponent(of: "é") == "é")
        #expect(PathText.directory(of: "dir/ÿ") == "dir")
    }
}
