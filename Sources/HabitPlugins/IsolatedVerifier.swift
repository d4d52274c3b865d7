import HabitCore
import HabitPlatform

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

    /// Where the runner is: $HABITCORE_PLUGIN_RUNNER, else beside the file holding this
    /// code (libhabitcore.so, or a test binary that links the engine), or in habitcore/
    /// beside it (where scripts/install.sh puts it, next to the plugins).
    package static func runnerPath() throws(HabitError) -> String {
        if let override = getenv("HABITCORE_PLUGIN_RUNNER"), override.pointee != 0 { return String(cString: override) }
        guard let folder = PluginFile.libraryFolder else {
            throw .notFound("cannot tell which file holds libhabitcore, so cannot find \(runnerName)")
        }
        let places = ["\(folder)/\(runnerName)", "\(folder)/habitcore/\(runnerName)"]
        guard let runner = places.first(where: { access($0, X_OK) == 0 }) else {
            throw .notFound(
                "\(runnerName) is not installed with libhabitcore (looked for \(places.joined(separator: " and "))); "
                    + "install it there, set HABITCORE_PLUGIN_RUNNER, or register the plugin in-process")
        }
        return runner
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
        let started = MonotonicClock.microseconds()
        func fail(_ reason: String, _ message: String) -> Verdict {
            .error(id, version, reason, message, durationUs: MonotonicClock.microseconds() - started)
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
                let (verdict, kept) = try RunnerProtocol.parseReply(
                    line, verifierId: id, version: version,
                    durationUs: MonotonicClock.microseconds() - started)
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
