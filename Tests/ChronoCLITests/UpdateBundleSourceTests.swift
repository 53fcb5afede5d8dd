import ArgumentParser
import Foundation
import Testing
@testable import ChronoCLI

/// `update install`'s one argument, refused before RAUC sees it unless it is a regular file's path
/// (made absolute) or an http(s) URL of printable characters.
@Suite("update install: the bundle argument")
struct UpdateBundleSourceTests {
    static func refusal(_ text: String, in directory: String) -> String? {
        do { _ = try UpdateInstallCommand.bundleSource(text, currentDirectory: directory); return nil } catch { return error.message }
    }

    @Test("a file's path, relative or absolute, and an http(s) URL are taken; the path made absolute")
    func accepted() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bundle-source-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        FileManager.default.createFile(atPath: directory + "/chronoception-0.2.0-raspi-arm64.raucb", contents: Data("x".utf8))
        #expect(try UpdateInstallCommand.bundleSource("chronoception-0.2.0-raspi-arm64.raucb", currentDirectory: directory)
            == directory + "/chronoception-0.2.0-raspi-arm64.raucb")
        #expect(try UpdateInstallCommand.bundleSource(directory + "/chronoception-0.2.0-raspi-arm64.raucb", currentDirectory: "/")
            == directory + "/chronoception-0.2.0-raspi-arm64.raucb")
        #expect(try UpdateInstallCommand.bundleSource("https://lab.example/b.raucb", currentDirectory: directory) == "https://lab.example/b.raucb")
        // A leading dash cannot become one of RAUC's options: a relative path is made absolute.
        FileManager.default.createFile(atPath: directory + "/--help", contents: Data("x".utf8))
        #expect(try UpdateInstallCommand.bundleSource("--help", currentDirectory: directory) == directory + "/--help")
    }

    @Test("no file, a folder, another scheme, a space or a control character, an empty or overlong text: refused in words")
    func refused() throws {
        let directory = FileManager.default.temporaryDirectory.path
        #expect(Self.refusal("/nonexistent/b.raucb", in: directory)
            == "No bundle file at '/nonexistent/b.raucb'; give the path of a .raucb that scripts/build-image wrote.")
        #expect(Self.refusal("/tmp", in: directory) == "No bundle file at '/tmp'; give the path of a .raucb that scripts/build-image wrote.")
        #expect(Self.refusal("ftp://lab.example/b.raucb", in: directory) == "Only http:// and https:// URLs can be streamed, not 'ftp://lab.example/b.raucb'.")
        for text in ["", "a b.raucb", "b.raucb\u{1B}[2J", String(repeating: "a", count: 2049)] {
            #expect(Self.refusal(text, in: directory)?.hasPrefix("The bundle must be a file's path or an http(s):// URL of at most 2,048 printable characters, not ") == true, "\(text.prefix(20))")
        }
    }
}
