import CHabitCore
import HabitCore

/// A C function registered at run time, with the caller's user_data: how
/// Python, Rust or an app plugs in its own model.
package final class CallbackVerifier: Verifier {
    package let id: String
    package let version: String
    private let callback: hc_verify_callback
    private let userData: UnsafeMutableRawPointer?

    package init(id: String, version: String, callback: hc_verify_callback, userData: UnsafeMutableRawPointer?) {
        self.id = id
        self.version = version
        self.callback = callback
        self.userData = userData
    }

    package func verify(_ evidence: Evidence, session: VerifierSession) -> Verdict {
        CVerdict.run(id: id, version: version, evidence, session: session) { callback($0, $1, userData) }
    }
}
