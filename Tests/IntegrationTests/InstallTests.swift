import Foundation
import XCTest

/// scripts/install.sh as a user runs it: into ~/.local as README.md's Install says, and
/// staged under DESTDIR; then the installed tree alone serves pkg-config, a C and a C++
/// consumer, habitctl, valgrind and gdb, with the Swift toolchain hidden from them.
final class InstallTests: XCTestCase {
    func install(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        let result = try runProcess([Paths.root + "/scripts/install.sh"] + arguments, environment: environment, currentDirectory: Paths.root)
        XCTAssertSucceeded(result, "install.sh \(arguments)")
        return result
    }

    func testInstalledTreeServesPkgConfigCAndCxxConsumersAndHabitctl() throws {
        let dir = try temporaryDirectory()
        let prefix = try InstalledPrefix.path()
        let version = try XCTUnwrap(
            try String(contentsOfFile: Paths.header, encoding: .utf8)
                .components(separatedBy: "\n").first { $0.hasPrefix("#define HC_VERSION_STRING") }?
                .split(separator: "\"").dropFirst().first.map(String.init))

        // The library under its full version, with the SONAME and development links.
        let files = FileManager.default
        XCTAssertEqual(try files.destinationOfSymbolicLink(atPath: prefix + "/lib/libhabitcore.so.1"), "libhabitcore.so.\(version)")
        XCTAssertEqual(try files.destinationOfSymbolicLink(atPath: prefix + "/lib/libhabitcore.so"), "libhabitcore.so.1")
        let soname = try runProcess(["readelf", "-d", prefix + "/lib/libhabitcore.so.\(version)"])
        XCTAssertTrue(soname.stdout.contains("Library soname: [libhabitcore.so.1]"), soname.stdout)
        XCTAssertEqual(try files.destinationOfSymbolicLink(atPath: prefix + "/lib/libhabitcore_hub.so.1"), "libhabitcore_hub.so.\(version)")
        // The installed habitctl finds the hub library in ../lib: it gets as far as connecting.
        let hub = try runProcess([prefix + "/bin/habitctl", "hub", "status", "--hub", "host=/nonexistent-hub dbname=x connect_timeout=1"])
        XCTAssertEqual(hub.status, 6)
        XCTAssertTrue(hub.stderr.contains("could not connect to the hub"), hub.stderr)
        for path in [
            "include/habitcore.h", "include/habitcore_plugin.h", "include/habitcore_hub.h", "lib/habitcore/plugins/libhabitcore_proofcheck.so",
            "lib/habitcore/habitcore-plugin-runner",
            "share/man/man1/habitctl.1", "share/bash-completion/completions/habitctl",
            "share/zsh/site-functions/_habitctl", "share/fish/vendor_completions.d/habitctl.fish",
        ] {
            XCTAssertTrue(files.fileExists(atPath: prefix + "/" + path), path)
        }

        // pkg-config and habitctl agree on the version the header states.
        let pkgConfig = ["PKG_CONFIG_PATH": prefix + "/lib/pkgconfig"]
        let modversion = try runProcess(["pkg-config", "--modversion", "habitcore", "habitcore_hub"], environment: pkgConfig)
        XCTAssertEqual(modversion.stdout, "\(version)\n\(version)\n")
        let hubFlags = try runProcess(["pkg-config", "--cflags", "--libs", "habitcore_hub"], environment: pkgConfig)
        XCTAssertEqual(
            hubFlags.stdout.split(whereSeparator: \.isWhitespace).map(String.init),
            ["-I\(prefix)/include", "-L\(prefix)/lib", "-lhabitcore_hub", "-lhabitcore"])
        let flags = try runProcess(["pkg-config", "--cflags", "--libs", "habitcore"], environment: pkgConfig)
        XCTAssertSucceeded(flags, "pkg-config")
        let pkgFlags = flags.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
        XCTAssertEqual(pkgFlags, ["-I\(prefix)/include", "-L\(prefix)/lib", "-lhabitcore"])

        // C and C++ consumers build from the installed tree alone (no -I into the sources).
        let example = Paths.root + "/examples/c/basic.c"
        XCTAssertSucceeded(try runProcess(["cc", "-Wall", "-Werror", example] + pkgFlags + ["-o", dir + "/basic"]), "cc with pkg-config")
        XCTAssertSucceeded(
            try runProcess(
                ["g++", "-x", "c++", "-std=c++17", "-Wall", "-Werror", example, "-x", "none"] + pkgFlags
                    + ["-o", dir + "/basic-cxx"]), "g++ with pkg-config")

        // Run them, and the installed habitctl, with the toolchain folder hidden.
        let habitctl = prefix + "/bin/habitctl"
        let script = """
            LD_LIBRARY_PATH='\(prefix)/lib' '\(dir)/basic' '\(dir)/c.db'
            LD_LIBRARY_PATH='\(prefix)/lib' '\(dir)/basic-cxx' '\(dir)/cxx.db'
            '\(habitctl)' --version
            '\(habitctl)' --db '\(dir)/cli.db' plugin add --so proofcheck
            '\(habitctl)' --db '\(dir)/cli.db' --json plugin list
            """
        let hidden = try runWithToolchainHidden(script)
        XCTAssertSucceeded(hidden, "the installed tree with the toolchain hidden")
        XCTAssertEqual(hidden.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("c basic:") }.count, 2, hidden.stdout)
        XCTAssertTrue(hidden.stdout.contains("\n\(version)\n"), "habitctl --version is \(version): \(hidden.stdout)")
        XCTAssertTrue(
            hidden.stdout.contains("\(prefix)/lib/habitcore/plugins/libhabitcore_proofcheck.so"),
            "--so proofcheck finds the installed plugin by name: \(hidden.stdout)")
        let linked = try runProcess(["ldd", habitctl])
        XCTAssertTrue(linked.stdout.contains("libhabitcore.so.1 => \(prefix)/bin/../lib/libhabitcore.so.1"), linked.stdout)

        // The man page renders without a warning; the bash completion completes.
        let man = try runProcess(["groff", "-man", "-Tutf8", "-ww", "-z", prefix + "/share/man/man1/habitctl.1"])
        XCTAssertSucceeded(man, "groff")
        XCTAssertEqual(man.stderr, "", "groff warnings")
        let manText = try String(contentsOfFile: prefix + "/share/man/man1/habitctl.1", encoding: .utf8)
        XCTAssertTrue(manText.contains(".SS proof") && manText.contains("habitcore \(version)"))
        let completion = try runProcess([
            "bash", "-c",
            "source '\(prefix)/share/bash-completion/completions/habitctl'; "
                + "COMP_WORDS=(habitctl --db x.db st); COMP_CWORD=3; _habitctl; echo \"${COMPREPLY[*]}\"",
        ])
        XCTAssertEqual(completion.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "streak stats")

    }

    func testDestdirStagesTheTreeForThePrefix() throws {
        let dir = try temporaryDirectory()
        let stage = dir + "/stage"
        _ = try install(["--prefix", "/opt/habitcore"], environment: ["DESTDIR": stage])
        let files = FileManager.default
        XCTAssertTrue(files.fileExists(atPath: stage + "/opt/habitcore/lib/libhabitcore.so.1"))
        XCTAssertFalse(files.fileExists(atPath: "/opt/habitcore"), "nothing outside DESTDIR")
        let pc = try String(contentsOfFile: stage + "/opt/habitcore/lib/pkgconfig/habitcore.pc", encoding: .utf8)
        XCTAssertTrue(pc.contains("prefix=/opt/habitcore\n"), pc)
        let list = try String(contentsOfFile: stage + "/opt/habitcore/share/habitcore/uninstall.txt", encoding: .utf8)
        XCTAssertTrue(list.split(separator: "\n").allSatisfy { $0.hasPrefix("/opt/habitcore/") }, list)
        // The list names every file and link installed; removing them leaves no file behind.
        let listed = Set(list.split(separator: "\n").map { stage + $0 })
        let found = try runProcess(["find", stage, "!", "-type", "d"])
        XCTAssertEqual(Set(found.stdout.split(separator: "\n").map(String.init)), listed)
        XCTAssertEqual(
            listed.count, 30,
            "5 binaries with their debug files and build-id links, 4 library links, 3 headers, 2 .pc, "
                + "a man page, 3 completions, valgrind.supp, the list")
        XCTAssertSucceeded(
            try runProcess(["sh", "-c", "sed 's|^|\(stage)|' '\(stage)/opt/habitcore/share/habitcore/uninstall.txt' | xargs rm -f"]),
            "uninstall")
        XCTAssertEqual(try runProcess(["find", stage, "!", "-type", "d"]).stdout, "", "files left after uninstalling")

        let refused = try runProcess([Paths.root + "/scripts/install.sh", "--prefix", "relative/path"], currentDirectory: Paths.root)
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.contains("absolute"), refused.stderr)
    }

    /// README.md's Install block as written, in a temporary home: install.sh prints the
    /// same exports the README shows, both C examples build with them through pkg-config
    /// (basic.c runs; the hub example runs in HubExampleTests), and the README's valgrind
    /// line over basic.c is clean with the installed suppressions.
    func testReadmeInstallSectionAsWritten() throws {
        let home = try InstalledPrefix.home()
        // install.sh's closing advice is the README's export lines, for this HOME.
        let output = try InstalledPrefix.output()
        let advice = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for line in try ReadmeInstall.exports {
            XCTAssertTrue(advice.contains(line), "install.sh prints '\(line)':\n\(output)")
        }
        let builds = try ReadmeInstall.builds
        XCTAssertEqual(builds.count, 2)
        let dir = try temporaryDirectory()
        // The README's lines, run from a folder of their own (the examples named in the source tree).
        let script =
            (builds.map { $0.replacingOccurrences(of: "examples/", with: Paths.root + "/examples/") }
            + [try ReadmeInstall.valgrind + " 2> valgrind.txt", "cat valgrind.txt >&2"]).joined(separator: "\n")
        let environment = try InstalledPrefix.environment().merging(["HOME": home]) { $1 }
        let ran = try runWithToolchainHidden("set -e\n" + script, environment: environment, currentDirectory: dir)
        XCTAssertSucceeded(ran, "README's Install and valgrind lines")
        XCTAssertTrue(ran.stdout.contains("c basic: Water on 2026-03-08 totals 5 after undo (library "), ran.stdout)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: dir + "/hub_leaderboard"))
        // valgrind read the library's debug file (names, not addresses) and found nothing.
        XCTAssertFalse(ran.stderr.contains("Giving up") || ran.stderr.contains("debuginfo reader"), ran.stderr)
        let summary = try XCTUnwrap(ran.stderr.split(separator: "\n").first { $0.contains("ERROR SUMMARY:") }, ran.stderr)
        XCTAssertTrue(
            summary.hasSuffix("ERROR SUMMARY: 0 errors from 0 contexts (suppressed: 2 from 2)")
                || summary.contains("ERROR SUMMARY: 0 errors from 0 contexts"), String(summary))
        XCTAssertTrue(ran.stderr.contains("definitely lost: 0 bytes") || ran.stderr.contains("All heap blocks were freed"), ran.stderr)
        XCTAssertTrue(ran.stderr.contains("possibly lost: 0 bytes") || ran.stderr.contains("All heap blocks were freed"), ran.stderr)
        print("valgrind over the installed library: \(summary)")
    }

    /// Installed binaries are stripped; their debug information is in .debug/NAME.debug beside
    /// each, which the .gnu_debuglink names and lib/debug/.build-id/ links to; gdb finds
    /// it from this prefix with no setting and shows a habitcore function's source line.
    /// Nothing installed names the source tree or the build folder.
    func testDebugInformationIsApartAndFound() throws {
        let prefix = try InstalledPrefix.path()
        let version = try XCTUnwrap(
            try String(contentsOfFile: Paths.header, encoding: .utf8)
                .components(separatedBy: "\n").first { $0.hasPrefix("#define HC_VERSION_STRING") }?
                .split(separator: "\"").dropFirst().first.map(String.init))
        for binary in [
            "lib/libhabitcore.so.\(version)", "lib/libhabitcore_hub.so.\(version)", "lib/habitcore/plugins/libhabitcore_proofcheck.so",
            "lib/habitcore/habitcore-plugin-runner", "bin/habitctl",
        ] {
            let path = prefix + "/" + binary, name = URL(fileURLWithPath: binary).lastPathComponent
            let debug = URL(fileURLWithPath: path).deletingLastPathComponent().path + "/.debug/\(name).debug"
            let sections = try runProcess(["readelf", "-S", "-W", path]).stdout
            XCTAssertFalse(sections.contains(".debug_info"), "\(binary) is stripped")
            XCTAssertFalse(sections.contains(".symtab"), "\(binary) is stripped")
            XCTAssertTrue(sections.contains(".gnu_debuglink"), binary)
            let link = try runProcess(["sh", "-c", "readelf --string-dump=.gnu_debuglink '\(path)' | LC_ALL=C tr -c '[:print:]\\n' '?'"]).stdout
            XCTAssertTrue(link.contains("\(name).debug"), link)
            XCTAssertTrue(try runProcess(["readelf", "-S", "-W", debug]).stdout.contains(".debug_info"), debug)
            let id = try XCTUnwrap(try runProcess(["readelf", "-n", path]).stdout.firstMatch(of: /Build ID: ([0-9a-f]+)/).map { String($0.1) })
            let byID = prefix + "/lib/debug/.build-id/\(id.prefix(2))/\(id.dropFirst(2)).debug"
            XCTAssertEqual(URL(fileURLWithPath: byID).resolvingSymlinksInPath().path, URL(fileURLWithPath: debug).resolvingSymlinksInPath().path, byID)
        }
        // gdb on the stripped library, no setting given: the line and the function come from the debug file.
        let gdb = try runProcess([
            "gdb", "-batch", "-nx", "-ex", "set debuginfod enabled off", "-ex", "info line hc_store_open",
            prefix + "/lib/libhabitcore.so.1",
        ])
        XCTAssertSucceeded(gdb, "gdb")
        XCTAssertNotNil(
            gdb.stdout.firstMatch(of: /Line \d+ of "Sources\/HabitExports\/\w+\.swift" starts at address 0x[0-9a-f]+ <hc_store_open>/),
            gdb.stdout + gdb.stderr)
        let plain = try temporaryDirectory() + "/libhabitcore.so.1"
        try FileManager.default.copyItem(atPath: prefix + "/lib/libhabitcore.so.\(version)", toPath: plain)
        let without = try runProcess(["gdb", "-batch", "-nx", "-ex", "set debuginfod enabled off", "-ex", "info line hc_store_open", plain])
        XCTAssertFalse(without.stdout.contains("Sources/"), "without its debug file, the library alone has no lines: \(without.stdout)")
        // No installed file, binary or text, debug files included, names the source tree it was built in.
        let found = try runProcess(["grep", "-r", "-l", "-F", "-a", Paths.root, prefix])
        XCTAssertEqual(found.stdout, "", "installed files naming \(Paths.root)")
    }
}
