import CHabitCore
import HabitCore
import ProofcheckCore

/// One photo judged: read its container and EXIF, decode it, compare its PDQ
/// hashes with the fingerprints kept with earlier proofs, keep its own, and let
/// ProofcheckCore decide. Only this file and the decoder touch the host and C.
enum Check {
    struct Input {
        var bytes: [UInt8]
        var receipt: Receipt
        var configJSON: String?
        var session: UnsafeMutableRawPointer?

        /// The evidence as this plugin reads it: fields of habitcore 0.2 only when its struct_size has them.
        static func read(_ evidence: UnsafePointer<hc_plugin_evidence>) -> Result<Input, Refusal> {
            let e = evidence.pointee
            guard Int(e.struct_size) >= end(of: \.metadata_json) else { return .failure(Refusal(message: "the evidence struct is too small")) }
            guard let pointer = e.bytes, e.size > 0, e.size <= 64 << 20 else { return .failure(Refusal(message: "no evidence bytes, or more than 64 MiB")) }
            let bytes = Array(UnsafeBufferPointer(start: pointer, count: Int(e.size)))
            let recent = Int(e.struct_size) >= end(of: \.session)
            let receipt = Receipt(
                atMs: e.received_at_ms, day: recent ? e.day : nil,
                utcOffsetSeconds: recent ? Int64(e.utc_offset_s) : 0, dayStartMinutes: recent ? e.day_start_minutes : 0)
            return .success(
                Input(
                    bytes: bytes, receipt: receipt, configJSON: recent ? e.config_json.flatMap { String(validatingCString: $0) } : nil,
                    session: recent ? e.session : nil))
        }

        private static func end<T>(of field: KeyPath<hc_plugin_evidence, T>) -> Int {
            (MemoryLayout<hc_plugin_evidence>.offset(of: field) ?? Int.max - 64) + MemoryLayout<T>.size
        }
    }

    struct Refusal: Error {
        var message: String
    }

    struct Verdict {
        var outcome: Int32
        var confidence: Double
        var reason: String
        var message: String
        var signals: [String]
    }

    static func run(_ input: Input, host: HostServices) -> Verdict {
        let config: ProofcheckConfig
        do throws(HabitError) { config = try ProofcheckConfig(json: input.configJSON) } catch {
            return Verdict(outcome: HC_OUTCOME_ERROR, confidence: 0, reason: "invalid_config", message: error.message, signals: [])
        }
        let container: ImageContainer
        do throws(ImageContainer.Failure) { container = try ImageContainer.read(input.bytes) } catch {
            switch error {
            case .unsupported: return verdict(.refused(.unsupported("the file starts with neither the JPEG nor the PNG signature"), minSide: config.minSide))
            case .malformed(let why): return verdict(.refused(.undecodable(why), minSide: config.minSide))
            }
        }
        let decoded: Decoder.Decoded
        switch Decoder.decode(input.bytes, format: container.format) {
        case .failure(.undecodable(let why)): return verdict(.refused(.undecodable(why), minSide: config.minSide))
        case .success(let image): decoded = image
        }
        guard min(decoded.width, decoded.height) >= config.minSide else {
            return verdict(.refused(.tooSmall(width: decoded.width, height: decoded.height), minSide: config.minSide))
        }
        let exif = container.exif.map { tiff in Result { () throws(ExifReader.Failure) in try ExifReader.read(tiff) } }
        var signals = MetadataSignals.find(container, exif: exif, receipt: input.receipt, config: config)

        let (fingerprint, probes) = ProofFingerprint.analyse(decoded.luma)
        var match: FingerprintMatch?
        switch host.fingerprints(kind: ProofFingerprint.kind) {
        case nil:
            signals.append(Signal(name: "not_compared", message: "the host keeps no fingerprints: earlier proofs were not compared"))
        case .failure(let failure)?:
            return Verdict(
                outcome: HC_OUTCOME_ERROR, confidence: 0, reason: "host_failed",
                message: "reading earlier fingerprints failed with status \(failure.status)", signals: [])
        case .success(let kept)?:
            match = FingerprintMatcher.nearest(probes, among: kept, maxDistance: config.maxDistance, minQuality: config.minHashQuality)
        }
        if case .failure(let failure) = host.keep(kind: ProofFingerprint.kind, bytes: fingerprint.bytes) {
            return Verdict(
                outcome: HC_OUTCOME_ERROR, confidence: 0, reason: "host_failed",
                message: "keeping the fingerprint failed with status \(failure.status)", signals: [])
        }
        return verdict(Assessment.judge(match: match, hashQuality: fingerprint.quality, signals: signals, config: config))
    }

    private static func verdict(_ assessment: Assessment) -> Verdict {
        Verdict(
            outcome: assessment.outcome.rawValue, confidence: assessment.confidence, reason: assessment.reason,
            message: assessment.message, signals: assessment.signals)
    }
}
