import ChronoCollector
import ChronoCore
import Testing

private typealias F = CollectorFixtures

/// The collector's CSV writes the device's name, participant and board as text, never as a live
/// formula, and keeps the signed errors as numbers (CSVText's rule, shared with the device's export).
@Suite struct CollectorCSVTests {
    @Test func namesFromDevicesAreNeutralisedAndNumbersKept() throws {
        var session = F.challenge(id: "5d1c7a4e-2b3f-4c5d-8e9f-0a1b2c3d4e5f", errorsMilliseconds: [-120])
        session.board = "@SUM(1+1)"
        let stored = CollectorSession(deviceID: F.deviceID, deviceName: "=HYPERLINK(\"http://evil\",\"P1\")", participant: "+P017",
                                      session: session, receivedUnixNanoseconds: F.now)
        var csv = ""
        CollectorCSV.write([stored]) { csv += $0 }
        let row = try #require(csv.components(separatedBy: "\r\n").dropFirst().first)
        #expect(row.hasPrefix("\(F.deviceID),\"'=HYPERLINK(\"\"http://evil\"\",\"\"P1\"\")\",\"'+P017\",5d1c7a4e-2b3f-4c5d-8e9f-0a1b2c3d4e5f,"))
        #expect(row.contains(",\"'@SUM(1+1)\","))
        #expect(row.contains(",-0.12,"))
    }
}
