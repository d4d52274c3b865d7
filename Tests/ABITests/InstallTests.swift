import Foundation
import XCTest

/// scripts/install.sh as a user runs it: into a prefix, and staged under DESTDIR;
/// then the installed tree alone serves pkg-config, a C and a C++ consumer and
/// habitctl, with the Swift toolchain hidden from them.
final class InstallTests: XCTestCase {
    func install(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        let result = try runProcess([Paths.root + "/scripts/install.sh"] + arguments, environment: environment, currentDirectory: Paths.root)
        XCTAssertSucceeded(result, "install.sh \(arguments)")
        return result
    }

    func testInstalledTreeServesPkgConfigCAndCxxConsumersAndHabitctl() throws {
        let dir = try temporaryDirectory()
        let prefix = try temporaryDirectory() + "/prefix"
        _ = try install(["--prefix", prefix])
        let version = try XCTUnwrap(try String(contentsOfFile: Paths.header, encoding: .utf8)
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
        for path in ["include/habitcore.h", "include/habitcore_plugin.h", "include/habitcore_hub.h", "lib/habitcore/plugins/libhabitcore_proofcheck.so",
                     "lib/habitcore/habitcore-plugin-runner",
                     "share/man/man1/habitctl.1", "share/bash-completion/completions/habitctl",
                     "share/zsh/site-functions/_habitctl", "share/fish/vendor_completions.d/habitctl.fish"] {
            XCTAssertTrue(files.fileExists(atPath: prefix + "/" + path), path)
        }

        // pkg-config and habitctl agree on the version the header states.
        let pkgConfig = ["PKG_CONFIG_PATH": prefix + "/lib/pkgconfig"]
        let modversion = try runProcess(["pkg-config", "--modversion", "habitcore"], environment: pkgConfig)
        XCTAssertEqual(modversion.stdout.trimmingCharacters(in: .whitespacesAndNewlines), version)
        let flags = try runProcess(["pkg-config", "--cflags", "--libs", "habitcore"], environment: pkgConfig)
        XCTAssertSucceeded(flags, "pkg-config")
        let pkgFlags = flags.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
        XCTAssertEqual(pkgFlags, ["-I\(prefix)/include", "-L\(prefix)/lib", "-lhabitcore"])

        // C and C++ consumers build from the installed tree alone (no -I into the sources).
        let example = Paths.root + "/examples/c/basic.c"
        XCTAssertSucceeded(try runProcess(["cc", "-Wall", "-Werror", example] + pkgFlags + ["-o", dir + "/basic"]), "cc with pkg-config")
        XCTAssertSucceeded(try runProcess(["g++", "-x", "c++", "-std=c++17", "-Wall", "-Werror", example, "-x", "none"] + pkgFlags
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
        XCTAssertTrue(hidden.stdout.contains("\(prefix)/lib/habitcore/plugins/libhabitcore_proofcheck.so"),
                      "--so proofcheck finds the installed plugin by name: \(hidden.stdout)")
        let linked = try runProcess(["ldd", habitctl])
        XCTAssertTrue(linked.stdout.contains("libhabitcore.so.1 => \(prefix)/bin/../lib/libhabitcore.so.1"), linked.stdout)

        // The man page renders without a warning; the bash completion completes.
        let man = try runProcess(["groff", "-man", "-Tutf8", "-ww", "-z", prefix + "/share/man/man1/habitctl.1"])
        XCTAssertSucceeded(man, "groff")
        XCTAssertEqual(man.stderr, "", "groff warnings")
        let manText = try String(contentsOfFile: prefix + "/share/man/man1/habitctl.1", encoding: .utf8)
        XCTAssertTrue(manText.contains(".SS proof") && manText.contains("habitcore \(version)"))
        let completion = try runProcess(["bash", "-c", "source '\(prefix)/share/bash-completion/completions/habitctl'; "
            + "COMP_WORDS=(habitctl --db x.db st); COMP_CWORD=3; _habitctl; echo \"${COMPREPLY[*]}\""])
        XCTAssertEqual(completion.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "streak stats")

        // The uninstall list names every file installed; removing them leaves no file behind.
        let list = try String(contentsOfFile: prefix + "/share/habitcore/uninstall.txt", encoding: .utf8)
            .split(separator: "\n").map(String.init)
        XCTAssertEqual(list.count, 18)
        XCTAssertSucceeded(try runProcess(["sh", "-c", "xargs rm -f < '\(prefix)/share/habitcore/uninstall.txt'"]), "uninstall")
        let left = try runProcess(["find", prefix, "!", "-type", "d"])
        XCTAssertEqual(left.stdout, "", "files left after uninstalling")
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

        let refused = try runProcess([Paths.root + "/scripts/install.sh", "--prefix", "relative/path"], currentDirectory: Paths.root)
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.contains("absolute"), refused.stderr)
    }
}
