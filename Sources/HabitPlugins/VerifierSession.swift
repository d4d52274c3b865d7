import CHabitCore
import HabitCore
import HabitPlatform

/// One verifier's view of the store while it judges one proof: the fingerprints it
/// kept with earlier proofs, and the ones it keeps with this proof (the engine
/// writes those with the verdicts). Lives for one verify call.
package final class VerifierSession {
    package typealias Fingerprint = (proofId: Int64, bytes: [UInt8])
    package static let maxFingerprintBytes = Int(HC_PLUGIN_FINGERPRINT_MAX)
    package static let maxKeptPerProof = 16

    /// Reads the fingerprints of one kind kept by this verifier with the store's other proofs.
    private let read: (String) throws(HabitError) -> [Fingerprint]
    /// Reads every kind at once, for a plugin in another process (nil: none kept).
    private let readAll: () throws(HabitError) -> [RunnerProtocol.Fingerprint]
    package private(set) var kept: [(kind: String, bytes: [UInt8])] = []

    package init(
        read: @escaping (String) throws(HabitError) -> [Fingerprint],
        readAll: @escaping () throws(HabitError) -> [RunnerProtocol.Fingerprint] = { [] }
    ) {
        self.read = read
        self.readAll = readAll
    }

    /// A session over fingerprints already read (in habitcore-plugin-runner).
    package convenience init(fingerprints: [RunnerProtocol.Fingerprint]) {
        self.init(read: { kind in fingerprints.filter { $0.kind == kind }.map { ($0.proofId, $0.bytes) } }, readAll: { fingerprints })
    }

    /// Every fingerprint of every kind this verifier kept with the store's other proofs.
    package func allFingerprints() throws(HabitError) -> [RunnerProtocol.Fingerprint] {
        try readAll()
    }

    package func fingerprints(kind: String) throws(HabitError) -> [Fingerprint] {
        try Self.validateKind(kind)
        return try read(kind)
    }

    package func keep(kind: String, bytes: [UInt8]) throws(HabitError) {
        try Self.validateKind(kind)
        guard !bytes.isEmpty, bytes.count <= Self.maxFingerprintBytes else {
            throw .invalid("a fingerprint holds 1...\(Self.maxFingerprintBytes) bytes, not \(bytes.count)")
        }
        guard kept.count < Self.maxKeptPerProof else { throw .invalid("at most \(Self.maxKeptPerProof) fingerprints per proof") }
        kept.append((kind, bytes))
    }

    // MARK: Sessions a plugin may name

    private static let liveLock = Lock()
    nonisolated(unsafe) private static var live: Set<UnsafeMutableRawPointer> = []

    /// Runs body with the session's address registered, so the host services can tell
    /// a session of a running verify from a stale or made-up pointer.
    func whileLive<T>(_ body: (UnsafeMutableRawPointer) -> T) -> T {
        let address = Unmanaged.passUnretained(self).toOpaque()
        Self.liveLock.locked { _ = Self.live.insert(address) }
        defer { Self.liveLock.locked { _ = Self.live.remove(address) } }
        return body(address)
    }

    /// The session at address, if a verify is running with it.
    static func live(at address: UnsafeMutableRawPointer?) -> VerifierSession? {
        guard let address, liveLock.locked({ live.contains(address) }) else { return nil }
        return Unmanaged<VerifierSession>.fromOpaque(address).takeUnretainedValue()
    }

    package static func validateKind(_ kind: String) throws(HabitError) {
        guard (1...64).contains(kind.utf8.count),
            kind.utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 95 || $0 == 46 })
        else {
            throw .invalid("fingerprint kind '\(kind.prefix(64))' must be 1-64 of a-z 0-9 - _ .")
        }
    }
}
