import ArgumentParser
import ChronoSync
import Foundation

/// The sync benchmark's load generator (benchmarks/sync/run): many simulated devices pushing real
/// `SyncBatch`es to a real `chronoception collector`, without a process per device. Not shipped.
@main
struct SyncBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chronoception-sync-bench",
        abstract: "Simulated devices pushing sync batches to a collector (benchmarks/sync/run).",
        subcommands: [Generate.self, Push.self])
}

/// Options both subcommands share: where histories are cached and how big they are.
struct HistoryOptions: ParsableArguments {
    @Option(help: "How many devices.")
    var devices: Int = 1000

    @Option(name: .customLong("sessions-per-device"), help: "Completed sessions in each device's history.")
    var sessionsPerDevice: Int = 1000

    @Option(help: "Where generated histories are kept between runs.")
    var cache: String

    func validate() throws {
        guard (1...100_000).contains(devices) else { throw ValidationError("--devices must be between 1 and 100000.") }
        guard (1...1_000_000).contains(sessionsPerDevice) else { throw ValidationError("--sessions-per-device must be between 1 and 1000000.") }
    }

    var historyCache: HistoryCache { HistoryCache(root: cache, completedPerDevice: sessionsPerDevice) }
}

extension SyncBench {
    /// Makes the devices' histories that are not cached yet, on every core.
    struct Generate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Simulate and cache the devices' histories (only the missing ones).")
        @OptionGroup var history: HistoryOptions

        func run() async throws {
            let cache = history.historyCache
            let missing = (1...history.devices).filter { !cache.has($0) }
            guard !missing.isEmpty else {
                print("generate: \(history.devices) device histories already cached in \(cache.directory.path)")
                return
            }
            let start = Date()
            let lanes = max(1, ProcessInfo.processInfo.activeProcessorCount)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for lane in 0..<lanes {
                    group.addTask {
                        for number in missing.enumerated() where number.offset % lanes == lane {
                            try cache.store(DeviceHistory.make(number: number.element, completed: history.sessionsPerDevice), number: number.element)
                        }
                    }
                }
                try await group.waitForAll()
            }
            print(String(format: "generate: %d device histories of %d completed sessions made in %.1f s (%@)",
                         missing.count, history.sessionsPerDevice, Date().timeIntervalSince(start), cache.directory.path))
        }
    }

    /// Enrols the devices and pushes their histories in three timed phases.
    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Enrol the devices, push their histories, then their hour offline, then replay a batch each.")
        @OptionGroup var history: HistoryOptions

        @Option(help: "The collector's base URL, e.g. http://127.0.0.1:8443.")
        var url: String

        @Option(help: "A file of one-time enrolment codes, one a line (at least one per device).")
        var codes: String

        @Option(help: "Devices pushing at once (each over its own connection).")
        var connections: Int = 32

        @Option(name: .customLong("collector-pid"), help: "The collector's process id, for its CPU time and peak memory.")
        var collectorPID: Int32?

        @Option(help: "Also write the figures as JSON here.")
        var json: String?

        func run() async throws {
            let cache = history.historyCache
            let devices = Array(1...history.devices)
            guard let missing = devices.first(where: { !cache.has($0) }) else { return try await push(devices, cache) }
            throw ValidationError("device \(missing)'s history is not cached in \(cache.directory.path): run `generate` first with the same options.")
        }

        private func push(_ devices: [Int], _ cache: HistoryCache) async throws {
            let codeList = try String(contentsOfFile: codes, encoding: .utf8).split(whereSeparator: \.isNewline).map(String.init)
            guard codeList.count >= devices.count else {
                throw ValidationError("\(codes) has \(codeList.count) codes for \(devices.count) devices: make one per device with `chronoception collector enrol`.")
            }
            var main: [Int: [EncodedBatch]] = [:]
            var offline: [Int: [EncodedBatch]] = [:]
            for device in devices {
                main[device] = try cache.batches(device, "main")
                offline[device] = try cache.batches(device, "offline")
            }
            let collector = collectorPID.map(CollectorProcess.init)
            let client = CollectorClient(baseURL: url, connections: connections)
            do {
                try await measure(devices, main: main, offline: offline, codes: codeList, client: client, collector: collector)
            } catch {
                try? await client.shutdown()
                throw error
            }
            try await client.shutdown()
        }

        private func measure(_ devices: [Int], main: [Int: [EncodedBatch]], offline: [Int: [EncodedBatch]], codes codeList: [String],
                             client: CollectorClient, collector: CollectorProcess?) async throws {
            let enrolStart = Date()
            let keys = try await enrol(devices, codes: codeList, client: client)
            print(String(format: "enrol: %d devices in %.1f s", devices.count, Date().timeIntervalSince(enrolStart)))

            var phases: [PhaseResult] = []
            let ingest = await runPhase(name: "ingest", client: client, keys: keys, batches: main, workers: connections, collector: collector)
            print(ingest.line)
            phases.append(ingest)
            // Every device was cut off for an hour and comes back at once with what it made meanwhile.
            let catchUp = await runPhase(name: "catch-up", client: client, keys: keys, batches: offline, workers: connections, collector: collector)
            print(catchUp.line)
            phases.append(catchUp)
            // The answer to each device's last batch was lost: the device sends it again.
            let lastBatches = main.mapValues { Array($0.suffix(1)) }
            let replay = await runPhase(name: "replay", client: client, keys: keys, batches: lastBatches, workers: connections, collector: collector)
            print(replay.line)
            phases.append(replay)

            let expectedNew = phases[0].sessions + phases[1].sessions
            let verdicts = [
                ("every session sent was accepted exactly once", ingest.accepted + catchUp.accepted == expectedNew && ingest.duplicates + catchUp.duplicates == 0),
                ("every replayed session was a duplicate", replay.accepted == 0 && replay.duplicates == replay.sessions),
                ("no batch was refused", phases.allSatisfy(\.failures.isEmpty)),
            ]
            for (name, ok) in verdicts { print("check: \(ok ? "ok  " : "FAIL") \(name)") }
            let peak = collector?.statusKilobytes("VmHWM")
            if let peak { print(String(format: "collector peak RSS: %.1f MiB", Double(peak) / 1024)) }
            if let json { try writeJSON(json, phases: phases, peakKilobytes: peak, devices: devices.count) }
            if verdicts.contains(where: { !$0.1 }) { throw ExitCode(1) }
        }

        private func enrol(_ devices: [Int], codes: [String], client: CollectorClient) async throws -> [Int: String] {
            try await withThrowingTaskGroup(of: [(Int, String)].self) { group in
                let lanes = min(connections, devices.count)
                for lane in 0..<lanes {
                    group.addTask {
                        var keys: [(Int, String)] = []
                        for (position, device) in devices.enumerated() where position % lanes == lane {
                            keys.append((device, try await client.enrol(deviceID: DeviceHistory.deviceID(number: device), code: codes[position])))
                        }
                        return keys
                    }
                }
                var keys: [Int: String] = [:]
                for try await part in group { for (device, key) in part { keys[device] = key } }
                return keys
            }
        }

        private func writeJSON(_ path: String, phases: [PhaseResult], peakKilobytes: Int?, devices: Int) throws {
            var object: [String: Any] = ["devices": devices, "sessions_per_device": history.sessionsPerDevice, "connections": connections]
            if let peakKilobytes { object["collector_peak_rss_kib"] = peakKilobytes }
            for phase in phases {
                var figures: [String: Any] = [
                    "seconds": phase.seconds, "sessions": phase.sessions, "batches": phase.batches,
                    "sessions_per_second": phase.sessionsPerSecond, "p50_ms": phase.latencyMilliseconds(0.5),
                    "p99_ms": phase.latencyMilliseconds(0.99), "max_ms": phase.latencyMilliseconds(1),
                    "accepted": phase.accepted, "duplicates": phase.duplicates, "failures": phase.failures.count,
                ]
                if let cpu = phase.collectorCPUSeconds { figures["collector_cpu_seconds"] = cpu }
                object[phase.name] = figures
            }
            try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]).write(to: URL(fileURLWithPath: path))
        }
    }
}
