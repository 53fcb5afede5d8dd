// swift-tools-version:6.0
import PackageDescription

// Layers (see docs/ARCHITECTURE.md): ChronoCore is pure and imports nothing; ChronoSimulation drives
// the core on a virtual clock; ChronoHardware wraps the devices; ChronoRuntime is the real-time loop;
// ChronoStore keeps the data; ChronoAPI serves them over HTTP (talking to the live device only
// through its DeviceControl protocol); ChronoDevice composes them into the daemon and the live
// sessions; ChronoCLI parses the command line; `chronoception` is only its entry.
let package = Package(
    name: "Chronoception",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "chronoception", targets: ["chronoception"]),
        // The sync collector, a program and a package of its own (a study's server, not a Pi): the
        // device's `chronoception collector …` runs it.
        .executable(name: "chronoception-collector", targets: ["chronoception-collector"]),
        .library(name: "ChronoCore", targets: ["ChronoCore"]),
        // For the libFuzzer package in Tests/fuzz, which depends on this one by path (only products
        // can be imported across packages); nothing else uses them.
        .library(name: "ChronoSimulation", targets: ["ChronoSimulation"]),
        .library(name: "ChronoHardware", targets: ["ChronoHardware"]),
        .library(name: "ChronoRuntime", targets: ["ChronoRuntime"]),
        .library(name: "ChronoStore", targets: ["ChronoStore"]),
        .library(name: "ChronoSync", targets: ["ChronoSync"]),
        .library(name: "ChronoCLI", targets: ["ChronoCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.30.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // TLS for `sync add https://…` (+2.9 MB stripped, measured in docs/SYNC.md) and to a study's
        // PostgreSQL server; already resolved for AsyncHTTPClient and postgres-nio.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        // Pure product logic: intervals, metrics, haptics, gestures, mode state machines, health records.
        .target(name: "ChronoCore"),
        // Virtual-clock driver for the core: replay of edge files and the simulated user.
        .target(name: "ChronoSimulation", dependencies: ["ChronoCore"]),
        // Device drivers (GPIO, sound, boards). Never imports the core.
        .target(
            name: "ChronoHardware",
            dependencies: ["CGPIOD", "CEvdev", "CALSA", "CALSASupport", "CLinuxSystem", .product(name: "Yams", package: "Yams")]
        ),
        // libgpiod through pkg-config; the shim in CGPIOD picks API v1 or v2 from the installed header.
        .systemLibrary(
            name: "CLibgpiod", pkgConfig: "libgpiod",
            providers: [.apt(["libgpiod-dev"])]
        ),
        .target(name: "CGPIOD", dependencies: ["CLibgpiod"]),
        // libevdev through pkg-config: any key of any input device as the button (board `button.driver: evdev`).
        .systemLibrary(name: "CLibevdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        // Flat events with nanosecond CLOCK_MONOTONIC stamps, whatever the ABI's input_event looks like.
        .target(name: "CEvdev", dependencies: ["CLibevdev"]),
        // alsa-lib (libasound) through pkg-config.
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        // alsa-lib's error handler (a C variadic callback Swift cannot write), to keep its stderr trail quiet.
        .target(name: "CALSASupport", dependencies: ["CALSA"]),
        // Runs the real drivers against a simulated gpiochip, a uinput keyboard and snd-aloop inside the HIL VM (Tests/hil/run).
        .executableTarget(name: "chronoception-hil-probe", dependencies: ["ChronoHardware", "ChronoRuntime", "ChronoCore", "CALSA", "CLibevdev"]),
        // The real-time session loop: one thread, one wait, absolute CLOCK_MONOTONIC deadlines.
        .target(name: "ChronoRuntime", dependencies: ["ChronoCore", "ChronoHardware", "CLinuxSystem"]),
        // epoll, timerfd and eventfd headers, which Swift's Glibc module does not export.
        .target(name: "CLinuxSystem"),
        // Desktop notifications over the session bus with sd-bus, libsystemd.so.0 opened at run time
        // (dlopen): no build dependency, nothing for the arm64 cross build (docs/STUDIES.md "Reminders").
        .target(name: "CDesktopNotify", linkerSettings: [.linkedLibrary("dl")]),
        // SQLite through GRDB: sessions, presets, settings, the health-log ledger, exports, progress.
        .target(name: "ChronoStore", dependencies: ["ChronoCore", "ChronoSync", "CWallClock", .product(name: "GRDB", package: "GRDB.swift")]),
        // adjtimex(2) for the store's "is the wall clock synchronised?" check (sys/timex.h is not in Glibc).
        .target(name: "CWallClock"),
        // The device-to-collector sync protocol (docs/SYNC.md): wire types both ends share, the
        // preference merge, setting keys, CSV text, progress limits; pure apart from Codable. Imports
        // ChronoCore only. The store's settings and exports are in these words; their users import it.
        .target(name: "ChronoSync", dependencies: ["ChronoCore"]),
        // The device API: one HTTP API (Hummingbird) on a Unix socket and TCP, over the store and a live device.
        .target(
            name: "ChronoAPI",
            dependencies: [
                "ChronoCore", "ChronoStore", "ChronoSync",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                // The TCP listener binds a numeric address itself (Hummingbird's only TCP bind resolves text).
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The document is embedded by scripts/embed-web (OpenAPIDocument.generated.swift): an
            // installed binary has no resource bundle beside it.
            exclude: ["Resources/openapi.json"]
        ),
        // The sync collector: the store of many devices' sessions (SQLite via GRDB or PostgreSQL via
        // PostgresNIO, one meaning), the sync routes and the collector's own API and pages.
        .target(
            name: "ChronoCollector",
            dependencies: [
                "ChronoCore", "ChronoStore", "ChronoSync", "ChronoAPI",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What both programs' command lines share: the entry (one `error:` line, checked standard
        // output), CommandFailure, exit statuses, the release version. Imports ChronoCore, ChronoStore
        // (both programs open a data directory's store) and ArgumentParser; never a driver.
        .target(
            name: "ChronoCommandLine",
            dependencies: ["ChronoCore", "ChronoStore", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The device put together: the daemon (drivers, store, event hub, device API, sync pusher,
        // data-directory watcher, loop thread, shutdown order), the single-session live runs, the
        // store's adapters to the runtime, the session resolver and the device's sync client. Takes
        // parsed values; imports ChronoCommandLine (CommandFailure), ChronoCore, ChronoHardware,
        // ChronoRuntime, ChronoStore, ChronoSync, ChronoAPI and SwiftNIO, never ArgumentParser.
        .target(
            name: "ChronoDevice",
            dependencies: [
                "ChronoCommandLine", "ChronoCore", "ChronoHardware", "ChronoRuntime", "ChronoStore", "ChronoSync", "ChronoAPI",
                "CDesktopNotify",
                // The sync client speaks SwiftNIO's HTTP/1 codec, with TLS for `https://` collectors.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // The command-line layer: argument parsing, output and exit codes; `ChronoDevice` does the wiring.
        .target(
            name: "ChronoCLI",
            dependencies: [
                "ChronoCommandLine", "ChronoDevice",
                "ChronoCore", "ChronoSimulation", "ChronoHardware", "ChronoRuntime", "ChronoStore", "ChronoAPI",
                "ChronoSync",
                // The control verbs' client speaks SwiftNIO's HTTP/1 codec over the Unix socket; the
                // release binary carries no other HTTP client (AsyncHTTPClient is for the API tests).
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The sync benchmark's load generator (benchmarks/sync/run): simulated devices posting real
        // batches to a real collector from one process. Not shipped in the .deb.
        .executableTarget(
            name: "chronoception-sync-bench",
            dependencies: [
                "ChronoCore", "ChronoSimulation", "ChronoStore", "ChronoSync",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The executable: only `Chronoception.runAndExit()`.
        .executableTarget(name: "chronoception", dependencies: ["ChronoCLI"]),
        // The collector's command line: `chronoception-collector serve|enrol|devices|…`, on ChronoCommandLine's
        // failure and exit-status machinery. Kept out of ChronoCLI so the device binary carries neither
        // PostgresNIO nor swift-crypto, and apart from it so the collector carries no driver, libgpiod,
        // ALSA or libevdev (the .debs' sizes and Depends, docs/PACKAGING.md).
        .target(
            name: "ChronoCollectorCLI",
            dependencies: [
                "ChronoCommandLine", "ChronoCollector", "ChronoCore", "ChronoStore", "ChronoSync", "ChronoAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The collector's executable: only `ChronoceptionCollector.runAndExit()`.
        .executableTarget(name: "chronoception-collector", dependencies: ["ChronoCollectorCLI"]),
        // Mock drivers and in-memory stand-ins for tests; no production target depends on it.
        .target(name: "ChronoTesting", dependencies: ["ChronoCore", "ChronoHardware", "ChronoRuntime", "ChronoSync", "ChronoStore", "ChronoDevice",
                                                .product(name: "Hummingbird", package: "hummingbird"),
                                                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                                                .product(name: "Logging", package: "swift-log"),
                                                .product(name: "NIOCore", package: "swift-nio")]),
        .testTarget(name: "ChronoCoreTests", dependencies: ["ChronoCore"]),
        .testTarget(name: "ChronoSimulationTests", dependencies: ["ChronoSimulation", "ChronoCore"]),
        .testTarget(name: "ChronoHardwareTests", dependencies: ["ChronoHardware", "ChronoCore", "ChronoTesting"]),
        .testTarget(name: "ChronoRuntimeTests", dependencies: ["ChronoRuntime", "ChronoHardware", "ChronoCore", "ChronoTesting"]),
        .testTarget(name: "ChronoSyncTests", dependencies: ["ChronoSync", "ChronoCore"]),
        .testTarget(name: "ChronoStoreTests", dependencies: ["ChronoStore", "ChronoCore", "ChronoSync", "ChronoTesting"]),
        .testTarget(
            name: "ChronoAPITests",
            dependencies: [
                "ChronoAPI", "ChronoCore", "ChronoStore", "ChronoTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "ChronoCollectorTests",
            dependencies: [
                "ChronoCollector", "ChronoSync", "ChronoCore", "ChronoStore", "ChronoAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "ChronoCollectorCLITests", dependencies: ["ChronoCollectorCLI", "ChronoCommandLine", "ChronoCollector", "ChronoTesting"]),
        // The composition's own tests, without the command line: the daemon's library, recorder and
        // restarts, a locked store, the sync pusher and exchange, the device's words.
        .testTarget(name: "ChronoDeviceTests", dependencies: ["ChronoDevice", "ChronoTesting", "ChronoCore", "ChronoStore", "ChronoSync", "ChronoRuntime", "ChronoHardware"]),
        .testTarget(name: "ChronoCLITests", dependencies: ["ChronoCLI", "ChronoDevice", "ChronoCommandLine", "ChronoCore", "ChronoStore", "ChronoRuntime", "ChronoHardware", "ChronoTesting", "ChronoAPI", "ChronoSync"]),
    ]
)
