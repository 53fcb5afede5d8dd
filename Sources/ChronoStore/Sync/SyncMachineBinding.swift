import ChronoCore
import Foundation
import GRDB

/// Ties a data directory's sync device ID to the machine it enrolled on, so a copy of the directory
/// (`cp -a`, a restored backup on another Pi) notices it is not that device (issue 20): the copy would
/// otherwise hold the other device's ID and key and push as it.
///
/// The binding is SHA-256 of an application-specific prefix and the machine ID (systemd's
/// `/etc/machine-id`, else D-Bus's `/var/lib/dbus/machine-id`): the machine ID itself is never stored,
/// as systemd asks of applications (machine-id(5)). Where neither file exists (some containers),
/// nothing can be told and nothing is refused.
public enum MachineBinding {
    public static let defaultPaths = ["/etc/machine-id", "/var/lib/dbus/machine-id"]
    /// A test seam: the file to read instead of the defaults (a test or a tier plays two machines).
    public static let pathVariable = "CHRONOCEPTION_MACHINE_ID_FILE"

    /// This machine's binding, or nil when it has no readable machine ID.
    public static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let paths = environment[pathVariable].map { [$0] } ?? defaultPaths
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path), data.count <= 4096,
                  let text = String(data: data, encoding: .utf8) else { continue }
            let machineID = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !machineID.isEmpty { return binding(machineID: machineID) }
        }
        return nil
    }

    /// The binding of a machine ID (64 hexadecimal digits).
    public static func binding(machineID: String) -> String {
        SHA256.hex("chronoception sync device binding 1\n" + machineID)
    }
}

/// What a data directory's binding says about the machine it is on now.
public enum SyncMachineState: Hashable, Sendable {
    /// Bound to this machine.
    case sameMachine
    /// Not bound yet: made before bindings existed, or never enrolled. Bound at the next push or
    /// enrolment on this machine.
    case unbound
    /// This machine has no machine ID: nothing can be told.
    case unknownMachine
    /// Bound to another machine: the directory was copied. This machine does not push as that device;
    /// `sync add` enrols it as a new device with a new device ID.
    case copied

    /// The decision, from the stored binding and this machine's.
    public static func of(stored: String?, current: String?) -> SyncMachineState {
        guard let current else { return .unknownMachine }
        guard let stored else { return .unbound }
        return stored == current ? .sameMachine : .copied
    }
}

/// Migration `sync-machine-v1`: `sync_device.machine_binding`, NULL until the device enrols or pushes.
enum SyncMachineSchema {
    static let migrationIdentifier = "sync-machine-v1"

    static func migrate(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE sync_device ADD COLUMN machine_binding TEXT")
    }
}

extension ChronoStore {
    /// Whether this data directory's device ID belongs to the machine whose binding is `current`.
    public func syncMachineState(current: String?) throws(StoreError) -> SyncMachineState {
        let stored = try read { db in try String.fetchOne(db, sql: "SELECT machine_binding FROM sync_device") }
        return SyncMachineState.of(stored: stored, current: current)
    }

    /// Binds an unbound device ID to this machine (a store enrolled before bindings existed, at its
    /// first push here); a bound one is left as it is.
    public func bindSyncDevice(to binding: String) throws(StoreError) {
        try write { db in
            try db.execute(sql: "UPDATE sync_device SET machine_binding = ? WHERE machine_binding IS NULL", arguments: [binding])
        }
    }

    /// Makes this data directory a new device: a new device ID bound to `binding`, and the enrolment,
    /// the key, the status and the cursor of the device it was copied from forgotten (they are that
    /// device's, not this one's). Sessions, the outbox and the preference stamps stay, so the new
    /// enrolment sends every session (the collector counts those it has as duplicates). Returns the
    /// new ID.
    public func becomeNewSyncDevice(binding: String?) throws(StoreError) -> String {
        try write { db in
            let deviceID = UUID().uuidString.lowercased()
            try db.execute(sql: "UPDATE sync_device SET device_id = ?, cursor = 0, machine_binding = ?", arguments: [deviceID, binding])
            try db.execute(sql: "DELETE FROM sync_enrolment")
            try db.execute(sql: "DELETE FROM sync_status")
            return deviceID
        }
    }
}
