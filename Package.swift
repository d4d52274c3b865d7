// swift-tools-version:6.1
// habitcore: a habit engine as a shared library with a stable C ABI.
// No package dependencies: SQLite comes from the system, everything else is ours.
import PackageDescription

// Only the hc_* symbols leave the shipped library; the Swift runtime and SQLite stay local.
let versionScript = Context.packageDirectory + "/Sources/LibHabitCore/exports.map"
// The proofcheck plugin exports hc_plugin_entry and nothing else.
let pluginVersionScript = Context.packageDirectory + "/Sources/Proofcheck/exports.map"
// The hub library exports hc_hub_* and nothing else.
let hubVersionScript = Context.packageDirectory + "/Sources/HabitHubExports/exports.map"

let package = Package(
    name: "habitcore",
    products: [
        // Swift apps depend on this one (by URL and version): the Swift API over the header,
        // built from source with the app, no unsafe flags and no proofcheck in its closure.
        // The engine (HabitExports) comes with the product, not with the HabitKit target:
        // habitctl uses the target and reaches the engine through libhabitcore.so instead.
        .library(name: "HabitKit", targets: ["HabitKit", "HabitExports"]),
        // The shipped libhabitcore.so (scripts/build-release.sh, scripts/install.sh): the C
        // contract for C, Python and Rust. Its link settings are unsafe flags, so no app
        // depends on this product.
        .library(name: "habitcore", type: .dynamic, targets: ["LibHabitCore"]),
        .executable(name: "habitctl", targets: ["habitctl"]),
        // Runs one shared-object plugin in a process of its own; installed beside libhabitcore.so.
        .executable(name: "habitcore-plugin-runner", targets: ["habitcore-plugin-runner"]),
        // The reference verifier plugin, loaded through include/habitcore_plugin.h like any other.
        .library(name: "habitcore_proofcheck", type: .dynamic, targets: ["Proofcheck"]),
        // The PostgreSQL sync hub's client (include/habitcore_hub.h): a library of its own,
        // so libpq is loaded only by apps that use a hub.
        .library(name: "habitcore_hub", type: .dynamic, targets: ["HabitHubExports"]),
    ],
    targets: [
        // The public C contract: include/habitcore.h, imported by Swift as CHabitCore.
        .systemLibrary(name: "CHabitCore", path: "include"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        // Pure domain: dates, time zones, habits, the ledger fold, JSON. No I/O.
        // The platform's C library (Glibc, Musl, Darwin) and what the platform can do:
        // decided in this one target, imported by every other.
        .target(name: "HabitPlatform"),
        .target(name: "HabitCore", dependencies: ["HabitPlatform"]),
        // Reading whole files (evidence, time zones): the one place that does.
        .target(name: "HabitFiles", dependencies: ["HabitPlatform"]),
        // SQLite persistence: schema, migrations, rows in, domain values out.
        .target(name: "HabitStore", dependencies: ["HabitPlatform", "HabitCore", "HabitFiles", "CSQLite"]),
        // The plugin host: verifiers as C callbacks, shared objects and executables.
        .target(name: "HabitPlugins", dependencies: ["HabitPlatform", "HabitCore", "HabitFiles", "CHabitCore"]),
        // Archives people bring (Loop Habit Tracker's zip): entries out, zlib inflates.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .target(name: "HabitArchive", dependencies: ["HabitCore", "CZlib"]),
        // Use cases composing the store, the plugin host and the domain.
        .target(name: "HabitEngine", dependencies: ["HabitPlatform", "HabitCore", "HabitFiles", "HabitStore", "HabitPlugins", "HabitArchive", "CHabitCore"]),
        // The header's macros as functions (hc_<struct>_init, the version): C, the one
        // language that reads the macros themselves.
        .target(name: "HabitStructDefaults", cSettings: [.headerSearchPath("../../include"), .headerSearchPath("../CStructDefaults")]),
        // The C exports: validate, convert, call the engine, convert back.
        .target(
            name: "HabitExports",
            dependencies: ["HabitPlatform", "CHabitCore", "HabitStructDefaults", "HabitEngine", "HabitPlugins"]
        ),
        // The shipped library's link, and nothing else: GNU-linker flags (Linux only), in a
        // target that only the habitcore product holds.
        .target(
            name: "LibHabitCore",
            dependencies: ["HabitExports"],
            exclude: ["exports.map"],
            linkerSettings: [.unsafeFlags(
                ["-Xlinker", "--version-script=\(versionScript)", "-Xlinker", "-soname=libhabitcore.so.1"],
                .when(platforms: [.linux])
            )]
        ),
        // The Swift API over the C header: what Swift apps use.
        .target(name: "HabitKit", dependencies: ["CHabitCore", "HabitPlatform"]),
        // The command line reaches the engine only through HabitKit (over the C header), and runs the
        // library we ship: it links libhabitcore.so.1 (RUNPATH $ORIGIN), not the engine. HabitFiles
        // (no engine) writes its own files (sync --out, --svg) as the library writes its exports.
        .executableTarget(
            name: "habitctl",
            dependencies: ["HabitPlatform", "HabitFiles", "HabitKit"],
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
        .executableTarget(name: "habitcore-plugin-runner", dependencies: ["HabitPlatform", "HabitCore", "HabitPlugins"]),
        // proofcheck: PDQ, EXIF and the signals, pure (no I/O, no pointers).
        // Optimised in debug builds too: unoptimised, PDQ's loops take a second a photo
        // (the proofcheck tests take 59 s instead of 16; @_optimize(speed) does not help
        // at -Onone). An unsafe flag, but only proofcheck's product holds this target:
        // HabitKit's closure does not (PackageDependencyTests).
        .target(name: "ProofcheckCore", dependencies: ["HabitPlatform", "HabitCore"], swiftSettings: [.unsafeFlags(["-O"])]),
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
            // A SONAME of its own: without one the linker names the plugin's symbol version
            // base by the path it was built at.
            linkerSettings: [.unsafeFlags(["-Xlinker", "--version-script=\(pluginVersionScript)", "-Xlinker", "-soname=libhabitcore_proofcheck.so"],
                                          .when(platforms: [.linux]))]
        ),
        // HabitKit against direct C calls (bench/habitkit.sh builds it in release).
        .executableTarget(name: "habitkit-bench", dependencies: ["HabitKit", "HabitExports", "CHabitCore", "HabitPlatform"], path: "bench/habitkit"),
        // Debian's libpq (libpq-dev): /usr/include/postgresql/libpq-fe.h.
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ"),
        // The hub: a libpq wrapper, the hub schema's migrations, push and pull over the
        // store's sync calls. It reaches stores only through include/habitcore.h, linking
        // libhabitcore.so.1 (so a store handle from the app's library is the one it uses).
        .target(
            name: "HabitHub",
            dependencies: ["HabitCore", "CLibPQ", "CHabitCore", "HabitPlatform"],
            linkerSettings: [.linkedLibrary("habitcore")],
            plugins: ["ShippedLibrary"]
        ),
        // The hub header's macros as functions (hc_hub_<struct>_init).
        .target(name: "HabitHubDefaults", cSettings: [.headerSearchPath("../../include"), .headerSearchPath("../CStructDefaults")]),
        // The hc_hub_* exports: validate, convert, call the hub, convert back.
        .target(
            name: "HabitHubExports",
            dependencies: ["CHabitCore", "HabitHub", "HabitHubDefaults", "HabitCore", "HabitPlatform"],
            exclude: ["exports.map"],
            linkerSettings: [.unsafeFlags([
                "-Xlinker", "--version-script=\(hubVersionScript)", "-Xlinker", "-soname=libhabitcore_hub.so.1",
                "-Xlinker", "-rpath=$ORIGIN",
            ], .when(platforms: [.linux]))]
        ),
        .testTarget(name: "DomainTests", dependencies: ["HabitCore", "ProofcheckCore"]),
        // The libraries from C, the CLI, the bindings; the hub against a real PostgreSQL 15
        // the tests start (initdb, pg_ctl).
        .testTarget(name: "IntegrationTests", dependencies: ["CHabitCore", "HabitExports", "HabitEngine", "HabitKit", "HabitHubExports", "HabitHub"]),
    ]
)
