import Glibc
import HabitCore

/// A shared-object plugin run in its own process: habitcore-plugin-runner loads the
/// .so and answers as an executable plugin would (RunnerProtocol), so a plugin that
/// crashes, hangs or aborts costs one error verdict naming the signal, never the host.
package final class IsolatedVerifier: Verifier {
    package static let runnerName = "habitcore-plugin-runner"
    package let id: String
    package let version: String
    package let path: String
    package let timeoutMs: Int64

    package init(id: String, version: String, path: String, timeoutMs: Int64) {
        self.id = id
        self.version = version
        self.path = path
        self.timeoutMs = timeoutMs
    }

    /// Where the runner is: $HABITCORE_PLUGIN_RUNNER, else beside the binary holding
    /// this code (libhabitcore.so, or habitctl and the tests that link it statically).
    package static func runnerPath() throws(HabitError) -> String {
        if let override = getenv("HABITCORE_PLUGIN_RUNNER"), override.pointee != 0 { return String(cString: override) }
        guard let binary = imagePath() else {
            throw .notFound("cannot tell which file holds libhabitcore, so cannot find \(runnerName)")
        }
        let folder = binary.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let runner = (folder.isEmpty ? "." : folder) + "/" + runnerName
        guard access(runner, X_OK) == 0 else {
            throw .notFound("\(runnerName) is not beside \(binary) (looked for \(runner)); install it there, "
                            + "set HABITCORE_PLUGIN_RUNNER, or register the plugin in-process")
        }
        return runner
    }

    /// The file this module was loaded from: the mapping in /proc/self/maps that holds
    /// #dsohandle (Glibc's module does not offer dladdr without _GNU_SOURCE).
    private static func imagePath() -> String? {
        let address = UInt(bitPattern: #dsohandle)
        let fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer.prefix(count)
        }
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6 else { continue }
            let range = fields[0].split(separator: UInt8(ascii: "-"))
            guard range.count == 2, let start = UInt(String(decoding: range[0], as: UTF8.self), radix: 16),
                  let end = UInt(String(decoding: range[1], as: UTF8.self), radix: 16), start <= address, address < end else { continue }
            let path = String(decoding: fields[5], as: UTF8.self).trimmingPrefixSpaces()
            return path.hasPrefix("/") ? path : nil
        }
        return nil
    }

    /// Loads the plugin in a runner and reads its id and version (its init runs there too).
    package static func describe(path: String, timeoutMs: Int64) throws(HabitError) -> (id: String, version: String) {
        let runner = try runnerPath()
        switch ChildProcess.run(path: runner, arguments: ["describe", path], input: [], timeoutMs: timeoutMs, environment: quietCrashes) {
        case .failure(let failure): throw .invalid("plugin '\(path)': \(failure.message)")
        case .success(let output):
            let line = String(decoding: output.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
            do throws(HabitError) {
                let object = try JSON.parse(line)
                if let refusal = try object.optionalString("error") { throw HabitError.invalid(refusal) }
                return (try object.string("id"), try object.optionalString("version") ?? "")
            } catch {
                throw error.code == .invalid ? error : .invalid("plugin '\(path)': the runner answered '\(line.prefix(200))'")
            }
        }
    }

    package func verify(_ evidence: Evidence, session: VerifierSession) -> Verdict {
        let started = Clock.microseconds()
        func fail(_ reason: String, _ message: String) -> Verdict {
            .error(id, version, reason, message, durationUs: Clock.microseconds() - started)
        }
        let runner: String, fingerprints: [RunnerProtocol.Fingerprint]
        do throws(HabitError) {
            runner = try Self.runnerPath()
            fingerprints = try session.allFingerprints()
        } catch {
            return fail("plugin_failed", error.message)
        }
        let request = RunnerProtocol.request(pluginPath: path, evidence: evidence, fingerprints: fingerprints) + "\n"
        switch ChildProcess.run(path: runner, arguments: ["verify"], input: Array(request.utf8), timeoutMs: timeoutMs, environment: Self.quietCrashes) {
        case .failure(let failure): return fail(failure.reason, failure.message)
        case .success(let output):
            let line = String(decoding: output.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
            do throws(HabitError) {
                let (verdict, kept) = try RunnerProtocol.parseReply(line, verifierId: id, version: version,
                                                                    durationUs: Clock.microseconds() - started)
                for item in kept { try session.keep(kind: item.kind, bytes: item.bytes) }
                return verdict
            } catch {
                return fail("invalid_output", "the plugin runner printed no valid verdict line: \(error.message)")
            }
        }
    }

    /// The Swift runtime's crash backtracer would stall a crashing runner and print a
    /// backtrace of the runner, not the plugin: off, the signal reaches us at once.
    private static let quietCrashes = ["SWIFT_BACKTRACE=enable=no"]
}

private extension String {
    func trimmingPrefixSpaces() -> String { String(drop { $0 == " " }) }
}
