import ChronoCore
import Testing

@Suite("The update record: its boot rule, its words, its file") struct UpdateRecordTests {
    static let started = WallTime(unixNanoseconds: 1_796_000_000_000_000_000, utcOffsetSeconds: 0)
    static let later = WallTime(unixNanoseconds: 1_796_000_300_000_000_000, utcOffsetSeconds: 0)
    static let old = ReleaseVersion("0.1.0")!
    static let new = ReleaseVersion("0.2.0")!

    func record(_ phase: UpdateRecord.Phase, progress: Int? = nil) -> UpdateRecord {
        UpdateRecord(phase: phase, fromVersion: Self.old, toVersion: Self.new, fromSlot: .a, started: Self.started, progress: progress)
    }

    @Test("the tryboot boot of the new slot is its trial; the old slot booting instead is a rollback")
    func bootOfTheNewSlotOrTheOld() {
        #expect(record(.installed).afterBoot(of: .b, at: Self.later).phase == .trying)
        let back = record(.installed).afterBoot(of: .a, at: Self.later)
        #expect(back.phase == .rolledBack)
        #expect(back.finished == Self.later)
        #expect(back.reason == "the new slot did not start")
        let afterTrial = record(.trying).afterBoot(of: .a, at: Self.later)
        #expect(afterTrial.phase == .rolledBack)
        #expect(afterTrial.reason == "the new slot started but did not confirm itself")
        #expect(afterTrial.line(running: Self.old) == "The update to 0.2.0 did not start and was rolled back; 0.1.0 is running.")
    }

    @Test("a second boot of the new slot means config.txt names it: mark-good ran, the record's write was cut")
    func secondBootOfTheNewSlot() {
        #expect(record(.trying).afterBoot(of: .b, at: Self.later).phase == .confirmed)
    }

    @Test("an install a restart cut short has failed, and nothing was switched")
    func installCutShort() {
        let cut = record(.installing, progress: 40).afterBoot(of: .a, at: Self.later)
        #expect(cut.phase == .failed)
        #expect(cut.progress == nil)
        #expect(cut.line(running: Self.old) == "The update to 0.2.0 failed: the install was cut short by a restart; nothing was switched; 0.1.0 is running.")
    }

    @Test("a finished update is left as it is by any later boot")
    func finishedStays() {
        for phase in [UpdateRecord.Phase.confirmed, .rolledBack, .failed] {
            #expect(record(phase).afterBoot(of: .a, at: Self.later) == record(phase))
            #expect(record(phase).afterBoot(of: .b, at: Self.later) == record(phase))
        }
    }

    @Test("sessions are held from the install's start until the new slot confirmed or the old one is back")
    func sessionsHeld() {
        #expect(UpdateRecord.Phase.allCases.filter { record($0).holdsSessions } == [.installing, .installed, .trying])
        #expect(record(.installing, progress: 45).sessionRefusal == "an update to 0.2.0 is installing; the device restarts when it is done.")
        #expect(record(.confirmed).sessionRefusal == nil)
        #expect(record(.installing, progress: 45).line(running: Self.old) == "Installing 0.2.0: 45 %; no session starts until it is done.")
        #expect(record(.confirmed).line(running: Self.new) == "Updated to 0.2.0.")
    }

    @Test("the file's text reads back to the same record")
    func fileRoundTrip() throws {
        var failed = record(.failed)
        failed.reason = UpdateRecord.keepable("rauc: \u{1b}[31mSignature verification failed\nmore")
        failed.finished = Self.later
        for value in [record(.installing, progress: 12), record(.trying), failed] {
            #expect(try UpdateRecord(fileText: value.fileText) == value)
        }
        #expect(failed.reason == #"rauc: \u{1B}[31mSignature verification failed\nmore"#)
        #expect(record(.installing, progress: 12).json.compactText ==
            #"{"format":1,"phase":"installing","from_version":"0.1.0","to_version":"0.2.0","from_slot":"A","to_slot":"B","started":"2026-11-30T00:53:20.000+00:00","progress":12}"#)
    }

    @Test("a file that is not a whole, valid record is refused and named")
    func refusals() {
        let good = record(.installing, progress: 12).json.compactText
        let cases: [(String, String)] = [
            ("", "not a JSON object"),
            (good.replacingOccurrences(of: #""progress":12"#, with: #""progress":101"#), "progress must be 0 to 100"),
            (good.replacingOccurrences(of: #""to_slot":"B""#, with: #""to_slot":"A""#), "to_slot is not the other slot"),
            (good.replacingOccurrences(of: #""phase":"installing""#, with: #""phase":"done""#), "phase is not one of"),
            (good.replacingOccurrences(of: #""to_version":"0.2.0""#, with: #""to_version":"0.2.0; rm -rf /""#), "to_version is not a version"),
            (good.replacingOccurrences(of: #""format":1,"#, with: #""format":1,"extra":true,"#), "unknown member \"extra\""),
            (good.replacingOccurrences(of: #""format":1"#, with: #""format":2"#), "format is not 1"),
            (String(repeating: " ", count: 5000) + good, "longer than 4 KiB"),
            (record(.trying).json.compactText.replacingOccurrences(of: "}", with: #","reason":"x"}"#), "reason must be one safe line"),
        ]
        for (text, words) in cases {
            #expect(throws: UpdateRecord.Refusal.self) { try UpdateRecord(fileText: text) }
            do { _ = try UpdateRecord(fileText: text); Issue.record("accepted: \(text)") } catch {
                #expect(error.description.hasPrefix("chronoception-update.json: \(words)"), "\(error.description)")
            }
        }
    }

    @Test("versions compare as numbers, a pre-release before its release")
    func versions() {
        func v(_ text: String) -> ReleaseVersion { ReleaseVersion(text)! }
        #expect(v("0.10.0") > v("0.9.0"))
        #expect(v("0.2.0~rc1") < v("0.2.0"))
        #expect(v("0.2") == v("0.2.0"))
        #expect(v("1.0.0") > v("0.99.99"))
        for bad in ["", "v1", "1..0", "1.0.0.0.0", "1.0-", "1.0~a b", "123456.0"] { #expect(ReleaseVersion(bad) == nil, "\(bad)") }
    }

    @Test("the booted slot comes from rauc.slot= on the kernel command line, nothing else")
    func bootedSlot() {
        #expect(BootSlot.booted(commandLine: "console=ttyAMA0 root=PARTUUID=c4120ce0-03 rauc.slot=B rootflags=noatime ro\n") == .b)
        #expect(BootSlot.booted(commandLine: "root=/dev/sda2 ro quiet") == nil)
        #expect(BootSlot.booted(commandLine: "rauc.slot=C") == nil)
        #expect(BootSlot.a.other == .b)
    }
}

@Suite("A bundle as RAUC describes it") struct BundleInfoTests {
    static let info = #"{"compatible":"chronoception-raspi-arm64","version":"0.2.0","description":"Chronoception 0.2.0","build":"20261204T022514Z","hooks":[],"images":[]}"#

    @Test("rauc info's JSON gives the compatible string and the version")
    func reads() throws {
        let bundle = try BundleInfo(raucJSON: Self.info)
        #expect(bundle == BundleInfo(compatible: "chronoception-raspi-arm64", version: ReleaseVersion("0.2.0")!))
        #expect(bundle.refusal(compatible: "chronoception-raspi-arm64", running: ReleaseVersion("0.1.0")!, allowDowngrade: false) == nil)
    }

    @Test("another card's bundle, an older one and the running one are refused, each naming the fix")
    func refusals() throws {
        let bundle = try BundleInfo(raucJSON: Self.info)
        #expect(bundle.refusal(compatible: "other", running: ReleaseVersion("0.1.0")!, allowDowngrade: true)?.hasPrefix("The bundle is for 'chronoception-raspi-arm64', and this card is 'other'") == true)
        #expect(bundle.refusal(compatible: "chronoception-raspi-arm64", running: ReleaseVersion("0.3.0")!, allowDowngrade: false)
            == "The bundle holds 0.2.0, older than the running 0.3.0. To go back on purpose, add --allow-downgrade.")
        #expect(bundle.refusal(compatible: "chronoception-raspi-arm64", running: ReleaseVersion("0.3.0")!, allowDowngrade: true) == nil)
        #expect(bundle.refusal(compatible: "chronoception-raspi-arm64", running: ReleaseVersion("0.2.0")!, allowDowngrade: false)?.contains("already running") == true)
    }

    @Test("output that does not describe a usable bundle is refused")
    func badOutput() {
        for text in ["", "rauc-Message: Reading bundle", #"{"version":"0.2.0"}"#, #"{"compatible":"x","version":"latest"}"#, #"{"compatible":"x\u001b[2J","version":"0.2.0"}"#] {
            #expect(throws: UpdateRecord.Refusal.self) { try BundleInfo(raucJSON: text) }
        }
    }

    @Test("rauc install's progress lines give their percentage; other lines none")
    func progress() {
        #expect(RaucProgressLine.percent("  0% Installing") == 0)
        #expect(RaucProgressLine.percent(" 40% Copying image to rootfs.1") == 40)
        #expect(RaucProgressLine.percent("100% Installing done.") == 100)
        #expect(RaucProgressLine.percent("installing `/data/x.raucb` succeeded") == nil)
        #expect(RaucProgressLine.percent("150% nonsense") == nil)
        #expect(RaucProgressLine.percent("4a% x") == nil)
    }
}
