// swift-tools-version:6.0
import PackageDescription

// The pipeline, one target a stage boundary:
//   CLibical (C boundary) -> ICalAdapter (parse + expand with libical)
//   -> AgendaCore (models, window, grouping, formatters, pure Swift)
//   -> ics-agenda (thin command line).
// Beside it, AgendaSystem: the one target that calls the system (files,
// locks, syncs, mappings, child processes), over swift-system.
let optimized: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "ics-agenda",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "ics-agenda", targets: ["ics-agenda"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibical",
            pkgConfig: "libical",
            providers: [.apt(["libical-dev"])]
        ),
        // libxml2 (Debian's libxml2-dev) reads CalDAV's multistatus answers;
        // only Subscriptions/XML/ imports it.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // libcurl (Debian's libcurl4-openssl-dev) fetches subscribed calendars,
        // opened when a URL is first fetched (not linked: it would slow every start).
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),  // dlopen: in libc from glibc 2.34, libdl before
        // RE2 (Debian's libre2-dev) matches --grep's pattern in linear time, behind a C face.
        .target(name: "CRE2", linkerSettings: [.linkedLibrary("re2")]),
        .target(name: "AgendaCore", swiftSettings: optimized),
        // The system's calls, each made here alone (SystemCallRuleTests): swift-system's
        // FileDescriptor, Stat and Errno, and what it lacks wrapped once.
        .target(
            name: "AgendaSystem",
            dependencies: [.product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: optimized
        ),
        .target(name: "ICalAdapter", dependencies: ["CLibical", "AgendaCore"], swiftSettings: optimized),
        .target(
            name: "Subscriptions", dependencies: ["CCurl", "CLibXML2", "AgendaCore", "AgendaSystem", "ICalAdapter"],
            swiftSettings: optimized),
        // `ics-agenda alarms`: the time of the last run, kept and locked between runs.
        .target(name: "Alarms", dependencies: ["AgendaCore", "AgendaSystem"], swiftSettings: optimized),
        .executableTarget(
            name: "ics-agenda",
            dependencies: [
                "AgendaCore",
                "AgendaSystem",
                "ICalAdapter",
                "Subscriptions",
                "Alarms",
                "CRE2",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "AgendaCoreTests", dependencies: ["AgendaCore"], swiftSettings: optimized),
        .testTarget(name: "ICalAdapterTests", dependencies: ["ICalAdapter", "AgendaCore"], swiftSettings: optimized),
        .testTarget(name: "CLITests", dependencies: ["ics-agenda"], swiftSettings: optimized),
        .testTarget(
            name: "CalDAVTests", dependencies: ["Subscriptions", "AgendaSystem"], swiftSettings: optimized),
        .testTarget(name: "AlarmsTests", dependencies: ["Alarms", "ICalAdapter", "AgendaCore"], swiftSettings: optimized),
        .testTarget(name: "AgendaSystemTests", dependencies: ["AgendaSystem"], swiftSettings: optimized),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
