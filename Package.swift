// swift-tools-version:6.1
// habitcore: a habit engine as a shared library with a stable C ABI.
// No package dependencies: SQLite comes from the system, everything else is ours.
import PackageDescription

// Only the hc_* symbols leave the library; the Swift runtime and SQLite stay local.
let versionScript = Context.packageDirectory + "/Sources/HabitCoreABI/exports.map"
// The proofcheck plugin exports hc_plugin_entry and nothing else.
let pluginVersionScript = Context.packageDirectory + "/Sources/Proofcheck/exports.map"
// The hub library exports hc_hub_* and nothing else.
let hubVersionScript = Context.packageDirectory + "/Sources/HabitHubABI/exports.map"

let package = Package(
    name: "habitcore",
    products: [
        .library(name: "habitcore", type: .dynamic, targets: ["HabitCoreABI"]),
        .executable(name: "habitctl", targets: ["habitctl"]),
        // Runs one shared-object plugin in a process of its own; installed beside libhabitcore.so.
        .executable(name: "habitcore-plugin-runner", targets: ["habitcore-plugin-runner"]),
        // The reference verifier plugin, loaded through include/habitcore_plugin.h like any other.
        .library(name: "habitcore_proofcheck", type: .dynamic, targets: ["Proofcheck"]),
        // The PostgreSQL sync hub's client (include/habitcore_hub.h): a library of its own,
        // so libpq is loaded only by apps that use a hub.
        .library(name: "habitcore_hub", type: .dynamic, targets: ["HabitHubABI"]),
    ],
    targets: [
        // The public C contract: include/habitcore.h, imported by Swift as CHabitCore.
        .systemLibrary(name: "CHabitCore", path: "include"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        // Pure domain: dates, time zones, habits, the ledger fold, JSON. No I/O.
        .target(name: "HabitCore"),
        // Reading whole files (evidence, time zones): the one place that does.
        .target(name: "HabitFiles"),
        // SQLite persistence: schema, migrations, rows in, domain values out.
        .target(name: "HabitStore", dependencies: ["HabitCore", "HabitFiles", "CSQLite"]),
        // The plugin host: verifiers as C callbacks, shared objects and executables.
        .target(name: "HabitPlugins", dependencies: ["HabitCore", "HabitFiles", "CHabitCore"]),
        // Archives people bring (Loop Habit Tracker's zip): entries out, zlib inflates.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .target(name: "HabitArchive", dependencies: ["HabitCore", "CZlib"]),
        // Use cases composing the store, the plugin host and the domain.
        .target(name: "HabitEngine", dependencies: ["HabitCore", "HabitStore", "HabitPlugins", "HabitArchive", "CHabitCore"]),
        // The header's macros as functions (hc_<struct>_init, the version): C, the one
        // language that reads the macros themselves.
        .target(name: "HabitCoreDefaults", cSettings: [.headerSearchPath("../../include")]),
        // The C exports: validate, convert, call the engine, convert back.
        .target(
            name: "HabitCoreABI",
            dependencies: ["CHabitCore", "HabitCoreDefaults", "HabitEngine", "HabitPlugins"],
            exclude: ["exports.map"],
            linkerSettings: [.unsafeFlags(["-Xlinker", "--version-script=\(versionScript)", "-Xlinker", "-soname=libhabitcore.so.1"])]
        ),
        // The command line reaches the engine only through the C header, and runs the
        // library we ship: it links libhabitcore.so.1 (RUNPATH $ORIGIN), not the engine.
        .executableTarget(
            name: "habitctl",
            dependencies: ["CHabitCore"],
            linkerSettings: [.linkedLibrary("habitcore")],
            plugins: ["ShippedLibrary"]
        ),
        // Orders habitctl's link after libhabitcore.so and makes its libhabitcore.so.1 link.
        .executableTarget(name: "shipped-library-link"),
        .plugin(
            name: "ShippedLibrary", capability: .buildTool(), dependencies: ["shipped-library-link"],
            path: "Sources/ShippedLibrary"
        ),
        // The isolated plugin host's helper: loads a .so and answers as an executable plugin.
        .executableTarget(name: "habitcore-plugin-runner", dependencies: ["HabitCore", "HabitPlugins"]),
        // proofcheck: PDQ, EXIF and the signals, pure (no I/O, no pointers).
        // Optimised in debug builds too: unoptimised, PDQ's loops take a second a photo.
        .target(name: "ProofcheckCore", dependencies: ["HabitCore"], swiftSettings: [.unsafeFlags(["-O"])]),
        // JPEG luma through libjpeg's own API (jpeglib.h, Debian's libjpeg62-turbo-dev):
        // C, for the setjmp error manager that keeps libjpeg from exiting or unwinding Swift.
        .target(name: "JPEGGray", linkerSettings: [.linkedLibrary("jpeg")]),
        // Debian's libpng.
        .systemLibrary(name: "CPNG", path: "Sources/CPNG"),
        // hc_plugin_entry, the data symbol a Swift module cannot define.
        .target(name: "ProofcheckEntry", cSettings: [.headerSearchPath("../../include")]),
        // The plugin: decoding, the host services, and the verify it exports.
        .target(
            name: "Proofcheck",
            dependencies: ["ProofcheckCore", "HabitCore", "ProofcheckEntry", "CHabitCore", "JPEGGray", "CPNG"],
            exclude: ["exports.map"],
            linkerSettings: [.unsafeFlags(["-Xlinker", "--version-script=\(pluginVersionScript)"])]
        ),
        // Debian's libpq (libpq-dev): /usr/include/postgresql/libpq-fe.h.
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ"),
        // The hub: a libpq wrapper, the hub schema's migrations, push and pull over the
        // store's sync calls. It reaches stores only through include/habitcore.h, linking
        // libhabitcore.so.1 (so a store handle from the app's library is the one it uses).
        .target(
            name: "HabitHub",
            dependencies: ["HabitCore", "CLibPQ", "CHabitCore"],
            linkerSettings: [.linkedLibrary("habitcore")],
            plugins: ["ShippedLibrary"]
        ),
        // The hub header's macros as functions (hc_hub_<struct>_init).
        .target(name: "HabitHubDefaults", cSettings: [.headerSearchPath("../../include")]),
        // The hc_hub_* exports: validate, convert, call the hub, convert back.
        .target(
            name: "HabitHubABI",
            dependencies: ["CHabitCore", "HabitHub", "HabitHubDefaults", "HabitCore"],
            exclude: ["exports.map"],
            linkerSettings: [.unsafeFlags([
                "-Xlinker", "--version-script=\(hubVersionScript)", "-Xlinker", "-soname=libhabitcore_hub.so.1",
                "-Xlinker", "-rpath=$ORIGIN",
            ])]
        ),
        // The hub against a real PostgreSQL 15 started by the tests (initdb, pg_ctl).
        .testTarget(name: "HubTests", dependencies: ["CHabitCore", "HabitHubABI", "HabitHub"]),
        .testTarget(name: "HabitCoreTests", dependencies: ["HabitCore", "ProofcheckCore"]),
        .testTarget(name: "ABITests", dependencies: ["CHabitCore", "HabitCoreABI", "HabitEngine"]),
    ]
)
