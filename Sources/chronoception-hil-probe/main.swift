// The hardware-in-the-loop probe: run by Tests/hil/run inside a qemu VM whose kernel has a gpio-sim
// chip and snd-aloop. It exercises the real libgpiod and alsa-lib drivers and prints one
// `ok - …` / `not ok - …` line per check; the script counts them.
//
//   chronoception-hil-probe gpio CHIP_LABEL SIM_SYSFS_FOLDER [TAG [EXPECTED_API]]
//   chronoception-hil-probe sound PLAYBACK_PCM CAPTURE_PCM [TAG]
//   chronoception-hil-probe permission CHIP_LABEL [TAG]   (drops root; run last)
//   chronoception-hil-probe evdev [TAG]                   (a uinput keyboard; drops root at its end)
import ChronoHardware
import Glibc

let arguments = CommandLine.arguments
func argument(_ index: Int) -> String? { index < arguments.count ? arguments[index] : nil }

switch argument(1) {
case "gpio":
    guard let label = argument(2), let folder = argument(3) else { break }
    let report = CheckReport(prefix: argument(4).map { "[\($0)] " } ?? "")
    if let expected = argument(5).flatMap(Int.init) {
        report.check("built against libgpiod API v\(expected)", LibgpiodAPI.version == expected, "API v\(LibgpiodAPI.version)")
    }
    GpioChecks(chip: SimulatedChip(folder: folder), label: label, report: report).run()
    LoopbackChecks(chip: SimulatedChip(folder: folder), label: label, report: report).run()
    exit(report.failed == 0 ? 0 : 1)
case "sound":
    guard let playback = argument(2), let capture = argument(3) else { break }
    let report = CheckReport(prefix: argument(4).map { "[\($0)] " } ?? "")
    SoundChecks(playbackDevice: playback, captureDevice: capture, report: report).run()
    exit(report.failed == 0 ? 0 : 1)
case "permission":
    guard let label = argument(2) else { break }
    let report = CheckReport(prefix: argument(3).map { "[\($0)] " } ?? "")
    GpioChecks(chip: SimulatedChip(folder: ""), label: label, report: report).permissionDenied()
    exit(report.failed == 0 ? 0 : 1)
case "evdev":
    let report = CheckReport(prefix: argument(2).map { "[\($0)] " } ?? "")
    let checks = EvdevChecks(report: report)
    checks.run()
    checks.permissionDenied()
    exit(report.failed == 0 ? 0 : 1)
default:
    break
}
print("usage: chronoception-hil-probe gpio CHIP_LABEL SIM_FOLDER [TAG] | sound PLAYBACK CAPTURE [TAG] | permission CHIP_LABEL [TAG] | evdev [TAG]")
exit(2)
