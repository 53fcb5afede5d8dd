import ChronoCommandLine
import ChronoCore
import ChronoHardware
import ChronoRuntime
import Foundation

/// Opens the board's drivers for the daemon; while an input-device button is missing (not plugged in
/// yet, or unplugged), says so once and waits for a device to appear instead of failing. A stop
/// signal ends the wait as it ends the loop (SIGHUP only when it stops, see `hangupReloads`).
struct ButtonWait {
    let live: LiveOptions
    let flags: SessionFlags
    let hangupReloads: Bool

    /// The drivers, or nil when a stop signal came while waiting (the daemon then exits 0).
    /// `lost`: what went away, when the button was there before.
    func openDrivers(lost: String? = nil) throws -> BoardDrivers? {
        var announced = false
        if let lost {
            printError("chronoception: \(lost); waiting for it to come back.")
            announced = true
        }
        // Made only when a wait is needed: the loop installs its own catcher once drivers are open.
        var signals: SignalCatcher?
        while true {
            do {
                let drivers = try live.openDrivers(flags: flags)
                if announced { drivers.console.writeLine("\(lost == nil ? "Found the button" : "The button is back"): \(drivers.buttonIntroduction ?? drivers.board.name)") }
                return drivers
            } catch let error as EvdevError where error.kind == .noSuchDevice || error.kind == .deviceGone {
                if !announced {
                    printError("chronoception: \(error)\nWaiting for the device to be plugged in.")
                    announced = true
                }
                if signals == nil { signals = try SignalCatcher(reloadOnHangup: hangupReloads) }
                let catcher = signals!
                EvdevDeviceFinder().waitForNewDevices(timeoutMilliseconds: 2000, wakeDescriptor: catcher.wakeDescriptor)
                if catcher.drain().contains(where: { $0 != SIGHUP || !hangupReloads }) {
                    printError("chronoception: stopped while waiting for the button's input device.")
                    return nil
                }
            }
        }
    }
}
