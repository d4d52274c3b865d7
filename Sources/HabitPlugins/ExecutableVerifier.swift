import HabitCore
import HabitPlatform

/// A plugin that is a program: it gets one JSON request on stdin and answers one
/// JSON line on stdout; stderr is its log. The host gives it `timeoutMs`, keeps at
/// most `outputCap` bytes of its output, and kills its process group when it runs
/// over either. A crash, a hang, a non-zero exit or garbage is an error verdict.
package final class ExecutableVerifier: Verifier {
    package let id: String
    package let version = "exec"
    package let path: String
    package let timeoutMs: Int64

    package init(id: String, path: String, timeoutMs: Int64) {
        self.id = id
        self.path = path
        self.timeoutMs = timeoutMs
    }

    /// An executable has no fingerprint services: it gets the JSON request only.
    package func verify(_ evidence: Evidence, session: VerifierSession) -> Verdict {
        let started = MonotonicClock.microseconds()
        func fail(_ reason: String, _ message: String) -> Verdict {
            .error(id, version, reason, message, durationUs: MonotonicClock.microseconds() - started)
        }
        switch ChildProcess.run(path: path, arguments: [], input: Array((evidence.requestJSON + "\n").utf8), timeoutMs: timeoutMs) {
        case .failure(let failure): return fail(failure.reason, failure.message)
        case .success(let output):
            let firstLine = output.prefix { $0 != UInt8(ascii: "\n") }
            do throws(HabitError) {
                return try Evidence.verdict(
                    fromLine: String(decoding: firstLine, as: UTF8.self), verifierId: id, version: version,
                    durationUs: MonotonicClock.microseconds() - started)
            } catch {
                return fail("invalid_output", "the plugin printed no valid verdict line: \(error.message)")
            }
        }
    }
}
