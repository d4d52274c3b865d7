import CHabitCore
import HabitCore

/// A C function registered at run time, with the caller's user_data: how
/// Python, Rust or an app plugs in its own model.
package final class CallbackVerifier: Verifier {
    package let id: String
    package let version: String
    private let callback: hc_verify_callback
    private let userData: UnsafeMutableRawPointer?
    /// hc_verifier_register_v2's release: run once, when the last reference goes (the
    /// handle dropped this verifier and no verification still holds it), so never
    /// before a callback that is still running.
    private let release: hc_release_callback?
    /// Cleared only by the registering thread, before anyone else holds the verifier.
    private var armed = true

    package init(
        id: String, version: String, callback: hc_verify_callback, userData: UnsafeMutableRawPointer?,
        release: hc_release_callback? = nil
    ) {
        self.id = id
        self.version = version
        self.callback = callback
        self.userData = userData
        self.release = release
    }

    /// The registration failed: user_data stays the caller's, so release is not called.
    package func disarm() { armed = false }

    deinit {
        if armed, let release { release(userData) }
    }

    package func verify(_ evidence: Evidence, session: VerifierSession) -> Verdict {
        CVerdict.run(id: id, version: version, evidence, session: session) { callback($0, $1, userData) }
    }
}
