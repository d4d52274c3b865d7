import CHabitCore
import HabitCore

/// The C side of the plugin: hc_plugin_entry (Sources/ProofcheckEntry) points at
/// these three functions (declared in proofcheck_entry.h; @c exports them under
/// their C names). They translate the host's structs and run the check;
/// nothing in them may trap, since a trap here kills the host.
final class PluginState {
    let services: UnsafePointer<hc_host_services>

    init(services: UnsafePointer<hc_host_services>) {
        self.services = services
    }
}

@c
func proofcheck_init(_ host: UnsafePointer<hc_host_services>?, _ out_user_data: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> Int32 {
    guard let host, let out_user_data, host.pointee.struct_size >= UInt32(MemoryLayout<hc_host_services>.offset(of: \.log) ?? Int.max) else { return 1 }
    // Kept until destroy, or for the life of the process, like the plugin and the host's table.
    out_user_data.pointee = Unmanaged.passRetained(PluginState(services: host)).toOpaque()
    return 0
}

@c
func proofcheck_destroy(_ user_data: UnsafeMutableRawPointer?) {
    guard let user_data else { return }
    Unmanaged<PluginState>.fromOpaque(user_data).release()
}

@c
func proofcheck_verify(
    _ evidence: UnsafePointer<hc_plugin_evidence>?, _ out: UnsafeMutablePointer<hc_plugin_verdict>?,
    _ state: UnsafeMutableRawPointer?
) -> Int32 {
    guard let state, let evidence, let out, out.pointee.struct_size >= UInt32(MemoryLayout<hc_plugin_verdict>.size) else { return 1 }
    let plugin = Unmanaged<PluginState>.fromOpaque(state).takeUnretainedValue()
    let verdict: Check.Verdict
    switch Check.Input.read(evidence) {
    case .failure(let refusal):
        verdict = Check.Verdict(outcome: HC_OUTCOME_ERROR, confidence: 0, reason: "invalid_evidence", message: refusal.message, signals: [])
    case .success(let input): verdict = Check.run(input, host: HostServices(plugin.services, session: input.session))
    }
    out.pointee.outcome = verdict.outcome
    out.pointee.confidence = verdict.confidence
    fill(&out.pointee.reason_code, verdict.reason)
    fill(&out.pointee.message, verdict.message)
    fill(&out.pointee.signals, verdict.signals.joined(separator: ","))
    return 0
}

/// Copies text into a fixed C buffer, cut at a character boundary, NUL-terminated.
private func fill<Buffer>(_ buffer: inout Buffer, _ text: String) {
    withUnsafeMutableBytes(of: &buffer) { raw in
        guard raw.count > 0 else { return }
        raw.copyBytes(from: TextRules.utf8Prefix(text, maxBytes: raw.count - 1) + [0])
    }
}

/// The host's fingerprint services for one verify call, when the host has them.
struct HostServices {
    private let services: UnsafePointer<hc_host_services>
    private let session: UnsafeMutableRawPointer?

    init(_ services: UnsafePointer<hc_host_services>, session: UnsafeMutableRawPointer?) {
        self.services = services
        self.session = session
    }

    private var hasFingerprints: Bool {
        let end = (MemoryLayout<hc_host_services>.offset(of: \.fingerprint_keep) ?? Int.max) + MemoryLayout<UnsafeRawPointer>.size
        return Int(services.pointee.struct_size) >= end && session != nil
            && services.pointee.fingerprints_read != nil && services.pointee.fingerprint_keep != nil
    }

    /// Every fingerprint of a kind this plugin kept with the store's other proofs, or nil without the service.
    func fingerprints(kind: String) -> Result<[(proofId: Int64, bytes: [UInt8])], HostFailure>? {
        guard hasFingerprints, let read = services.pointee.fingerprints_read else { return nil }
        final class Found { var items: [(proofId: Int64, bytes: [UInt8])] = [] }
        let found = Found()
        let status = kind.withCString { kind in
            read(
                session, kind,
                { proofId, bytes, size, context in
                    guard let context else { return 1 }
                    let found = Unmanaged<Found>.fromOpaque(context).takeUnretainedValue()
                    if let bytes, size > 0, size <= Int64(HC_PLUGIN_FINGERPRINT_MAX) {
                        found.items.append((proofId, Array(UnsafeBufferPointer(start: bytes, count: Int(size)))))
                    }
                    return 0
                }, Unmanaged.passUnretained(found).toOpaque(), services.pointee.user_data)
        }
        return status == 0 ? .success(found.items) : .failure(HostFailure(status: status))
    }

    /// Keeps a fingerprint with this proof; false without the service.
    func keep(kind: String, bytes: [UInt8]) -> Result<Bool, HostFailure> {
        guard hasFingerprints, let keep = services.pointee.fingerprint_keep else { return .success(false) }
        let status = kind.withCString { kind in
            bytes.withUnsafeBufferPointer { keep(session, kind, $0.baseAddress, Int64($0.count), services.pointee.user_data) }
        }
        return status == 0 ? .success(true) : .failure(HostFailure(status: status))
    }
}

struct HostFailure: Error {
    var status: Int32
}
