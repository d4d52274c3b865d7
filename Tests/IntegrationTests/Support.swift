import CHabitCore
import Foundation
import XCTest

/// Where things are: the package's sources (via #filePath) and the built
/// products (beside the test binary, CommandLine.arguments[0]).
enum Paths {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let include = root + "/include"
    static let header = include + "/habitcore.h"
    static var buildDir: String {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = binary.deletingLastPathComponent()
        // On Linux the test binary is .build/debug/<name>.xctest; on other layouts walk up.
        while !FileManager.default.fileExists(atPath: dir.path + "/libhabitcore.so"), dir.path != "/" {
            dir = dir.deletingLastPathComponent()
        }
        return dir.path
    }
    static var library: String { buildDir + "/libhabitcore.so" }
    static var habitctl: String { buildDir + "/habitctl" }
}

struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
    /// True when the process ended by a signal (status holds the signal number).
    var signaled: Bool
}

/// Runs a program to completion. Output goes through files, so large output cannot deadlock.
@discardableResult
func runProcess(
    _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil,
    currentDirectory: String? = nil
) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env["SWIFT_BACKTRACE"] = "enable=no"
    for (key, value) in environment { env[key] = value }
    process.environment = env
    if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
    let dir = try temporaryDirectory()
    let outURL = URL(fileURLWithPath: dir + "/stdout"), errURL = URL(fileURLWithPath: dir + "/stderr")
    FileManager.default.createFile(atPath: outURL.path, contents: nil)
    FileManager.default.createFile(atPath: errURL.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: outURL)
    process.standardError = try FileHandle(forWritingTo: errURL)
    let input = Pipe()
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    let out = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
    let err = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
    try? FileManager.default.removeItem(atPath: dir)
    return ProcessResult(
        status: process.terminationStatus, stdout: out, stderr: err,
        signaled: process.terminationReason == .uncaughtSignal)
}

func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "habitcore-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Compiles C sources against the header and the built library.
func compileC(_ sources: [String], output: String, extra: [String] = [], cxx: Bool = false) throws {
    let compiler = cxx ? "g++" : "cc"
    // A pointer of the wrong type (an int32_t count where the header says int64_t) is an error, not a warning.
    let strict = cxx ? [] : ["-Werror=incompatible-pointer-types"]
    let result = try runProcess(
        [compiler, "-Wall", "-Wextra", "-O1", "-I", Paths.include] + strict + sources + [
            "-o", output, "-L", Paths.buildDir, "-lhabitcore", "-Wl,-rpath," + Paths.buildDir, "-lpthread", "-ldl",
        ] + extra)
    XCTAssertEqual(result.status, 0, "compiling \(sources): \(result.stderr)")
}

func XCTAssertSucceeded(_ result: ProcessResult, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertFalse(result.signaled, "\(what) died by signal \(result.status)\n\(result.stderr)", file: file, line: line)
    XCTAssertEqual(result.status, 0, "\(what) failed\nstdout: \(result.stdout)\nstderr: \(result.stderr)", file: file, line: line)
}

/// Runs body with text as a C string, or with NULL for nil.
/// A struct filled by its hc_<struct>_init, as bindings fill them: the tests never
/// write a struct's size or defaults themselves (SourceRulesTests checks).
func defaults<T>(_ initialise: (UnsafeMutablePointer<T>?, UInt32) -> Int32) -> T {
    let raw = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment)
    defer { raw.deallocate() }
    raw.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<T>.size)
    let value = raw.bindMemory(to: T.self, capacity: 1)
    XCTAssertEqual(initialise(value, UInt32(MemoryLayout<T>.size)), HC_OK)
    return value.pointee
}

func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}

/// The schema version this build creates and migrates to (Sources/HabitStore/Schema.swift):
/// one place for every test that checks a store was created or migrated.
let latestSchemaVersion: Int32 = 23

/// The Swift toolchain's root (/opt/swift for /opt/swift/usr/bin/swift): what a
/// consumer of the self-contained library must not need.
func swiftToolchainRoot() throws -> String {
    let swift = try runProcess(["sh", "-c", "readlink -f \"$(command -v swift)\""]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    return URL(fileURLWithPath: swift).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
}

/// Runs a shell script with the toolchain folder hidden (a tmpfs mounted over it in a
/// mount namespace of its own), so anything that still needs it fails.
func runWithToolchainHidden(_ script: String, environment: [String: String] = [:], currentDirectory: String? = nil) throws -> ProcessResult {
    let toolchain = try swiftToolchainRoot()
    let unshare = getuid() == 0 ? ["unshare", "-m"] : ["unshare", "-r", "-m"]
    let hide = "set -e\nmount -t tmpfs none '\(toolchain)'\ntest ! -e '\(toolchain)/usr/lib/swift'\n"
    return try runProcess(unshare + ["sh", "-c", hide + script], environment: environment, currentDirectory: currentDirectory)
}

/// README.md's Install section as written: its shell block (install.sh into ~/.local, the
/// two exports, the C examples built with pkg-config) and its valgrind line.
enum ReadmeInstall {
    /// The lines of the first ```sh block after `heading`.
    static func block(after heading: String) throws -> [String] {
        let readme = try String(contentsOfFile: Paths.root + "/README.md", encoding: .utf8)
        guard let section = readme.range(of: heading), let start = readme.range(of: "```sh\n", range: section.upperBound..<readme.endIndex),
            let end = readme.range(of: "\n```", range: start.upperBound..<readme.endIndex)
        else { throw XCTSkip("README.md has no sh block after \(heading)") }
        return readme[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
    }

    static var lines: [String] { get throws { try block(after: "## Install\n") } }
    /// `scripts/install.sh --prefix ~/.local ...`
    static var install: String { get throws { try XCTUnwrap(try lines.first { $0.hasPrefix("scripts/install.sh ") }) } }
    /// The `export` lines install.sh prints for that prefix.
    static var exports: [String] { get throws { try lines.filter { $0.hasPrefix("export ") } } }
    /// The `cc examples/c/...` lines.
    static var builds: [String] { get throws { try lines.filter { $0.hasPrefix("cc ") } } }
    /// `valgrind ... --suppressions=$HOME/.local/share/habitcore/valgrind.supp ./basic habits.db`
    static var valgrind: String { get throws { try XCTUnwrap(try block(after: "**Debugging.**").first { $0.hasPrefix("valgrind ") }) } }
}

/// README.md's install line run once per test process, with HOME a temporary folder: the
/// installed ~/.local that InstallTests, BindingsTests and HubExampleTests use as a user
/// would, through the README's exports.
enum InstalledPrefix {
    nonisolated(unsafe) private static var made: (home: String, output: String)?

    /// The temporary home; the prefix is its .local.
    static func home() throws -> String {
        if let made { return made.home }
        let home = try temporaryDirectory() + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let result = try runProcess(["bash", "-c", try ReadmeInstall.install], environment: ["HOME": home], currentDirectory: Paths.root)
        XCTAssertSucceeded(result, "README: \(try ReadmeInstall.install)")
        guard result.status == 0 else { throw XCTSkip("install.sh failed") }
        made = (home, result.stdout)
        return home
    }

    static func path() throws -> String { try home() + "/.local" }

    /// What install.sh printed.
    static func output() throws -> String {
        _ = try home()
        return made?.output ?? ""
    }

    /// The environment after the README's export lines, run in a shell where neither
    /// variable was set before: PKG_CONFIG_PATH and LD_LIBRARY_PATH (HOME stays the
    /// test's own: rustup and cargo live there).
    static func environment() throws -> [String: String] {
        let home = try home()
        let script = try ReadmeInstall.exports.joined(separator: "\n") + "\nprintf '%s\\n%s\\n' \"$PKG_CONFIG_PATH\" \"$LD_LIBRARY_PATH\""
        let result = try runProcess(["env", "-u", "PKG_CONFIG_PATH", "-u", "LD_LIBRARY_PATH", "bash", "-c", script], environment: ["HOME": home])
        XCTAssertSucceeded(result, "README's exports")
        let values = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return ["PKG_CONFIG_PATH": values.first ?? "", "LD_LIBRARY_PATH": values.dropFirst().first ?? ""]
    }
}

/// SQL that takes schema 13's habit display columns away again, for tests that turn a
/// store back into an older schema (the migration adds them with ALTER TABLE).
let dropHabitDisplaySQL =
    revertSettingsVersionsSQL
    + ["description", "question", "colour", "icon", "position"]
    .map { "ALTER TABLE habits DROP COLUMN \($0);" }.joined(separator: " ") + " "

/// SQL that takes migration 18 (a habit's settings versions) back to the schedules
/// table it grew from: every schema older than 13 lacks it too.
let revertSettingsVersionsSQL =
    ["target", "direction", "proof_required", "group_name", "archived"]
    .map { "ALTER TABLE habit_versions DROP COLUMN \($0);" }.joined(separator: " ") + " ALTER TABLE habit_versions RENAME TO habit_schedules; "

/// SQL that takes schema 12's shields away again (its tables, and the triggers it
/// put on older tables), for tests that turn a store back into an older schema.
let dropShieldsSQL =
    dropSyncSQL
    + ["settings", "habits", "entries", "vacations", "unlock_sessions", "session_ends"].flatMap { table in
        ["insert", "update", "delete"].map { "DROP TRIGGER IF EXISTS \(table)_shield_\($0);" }
    }.joined(separator: " ") + " DROP TABLE shield_emergencies; DROP TABLE shield_rule_versions; DROP TABLE shield_rules;"
    + " DROP TABLE zone_changes; DROP TABLE shield_revision; "

/// Takes a store back below migration 14 (sync), for the tests of older stores (what
/// migration 15 adds too: its award_unlocks is the older one's with rule_id not unique;
/// and migration 20's saved folds).
let dropSyncSQL =
    "DROP TABLE saved_folds; DROP TABLE proof_copies; DROP TABLE sync_replica; DROP TABLE sync_ops; DROP TABLE sync_replicas; DROP TABLE sync_lww; DROP TABLE sync_removed; DROP TABLE sync_moves; "
