// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for the parsers, kept out of the product build: a package of its own that depends
// on the main one by path. Built by Tests/fuzz/run with `-sanitize=fuzzer,address`;
// each target is one fuzz function handed to libFuzzer's driver from main.swift. See docs/FAULTS.md.
let package = Package(
    name: "ChronoceptionFuzz",
    dependencies: [.package(name: "Chronoception", path: "../..")],
    targets: [
        // Declares libFuzzer's driver, which each target's main calls.
        .target(name: "CFuzzerDriver"),
        // Edge files (`replay`'s input): parsed, then run through the real engine and the report.
        .executableTarget(name: "FuzzEdgeFile", dependencies: [
            "CFuzzerDriver",
            .product(name: "ChronoCore", package: "Chronoception"),
            .product(name: "ChronoSimulation", package: "Chronoception"),
        ]),
        // Interval text (`--interval`, the default-interval setting, presets).
        .executableTarget(name: "FuzzInterval", dependencies: ["CFuzzerDriver", .product(name: "ChronoCore", package: "Chronoception")]),
        // Board files (YAML).
        .executableTarget(name: "FuzzBoardFile", dependencies: ["CFuzzerDriver", .product(name: "ChronoHardware", package: "Chronoception")]),
        // Settings values (`settings set KEY VALUE`) and what the device reads back from them.
        .executableTarget(name: "FuzzSettings", dependencies: [
            "CFuzzerDriver",
            .product(name: "ChronoCore", package: "Chronoception"),
            .product(name: "ChronoStore", package: "Chronoception"),
            .product(name: "ChronoSync", package: "Chronoception"),
        ]),
        // The glanceable state file as `status` reads it.
        // (The runtime, not the CLI: the CLI would bring the servers and two TLS libraries into every
        // sanitized build.)
        .executableTarget(name: "FuzzStateFile", dependencies: ["CFuzzerDriver", .product(name: "ChronoRuntime", package: "Chronoception")]),
        // A sync batch as a collector decodes and validates it (the wire types and the core's session
        // rules; the collector's servers stay out of the sanitized build).
        // A fallback file as `import` decodes and validates it.
        .executableTarget(name: "FuzzFallbackFile", dependencies: [
            "CFuzzerDriver",
            .product(name: "ChronoCore", package: "Chronoception"),
            .product(name: "ChronoStore", package: "Chronoception"),
        ]),
        .executableTarget(name: "FuzzSyncBatch", dependencies: [
            "CFuzzerDriver",
            .product(name: "ChronoCore", package: "Chronoception"),
            .product(name: "ChronoSync", package: "Chronoception"),
        ]),
        // The card's update record as `chronoception update` reads it, and RAUC's description of a bundle.
        .executableTarget(name: "FuzzUpdateRecord", dependencies: [
            "CFuzzerDriver",
            .product(name: "ChronoCore", package: "Chronoception"),
        ]),
        // A collector's reply as the device decodes and validates it (`SyncReplyValidation`): receipts,
        // grants and the assignment inside a receipt.
        .executableTarget(name: "FuzzReceipt", dependencies: [
            "CFuzzerDriver",
            .product(name: "ChronoCore", package: "Chronoception"),
            .product(name: "ChronoSync", package: "Chronoception"),
        ]),
    ]
)
