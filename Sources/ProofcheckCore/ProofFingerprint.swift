/// What proofcheck keeps of a photo to recognise it later: the PDQ hash of the
/// photo as it is (the one any PDQ implementation computes), of the photo without
/// uniform bars when it had them, and of crops of that keeping 95% of each side
/// (centre and four corners) and 90% (centre), so a letterboxed copy or one
/// cropped a little still matches.
package struct ProofFingerprint: Equatable, Sendable {
    package static let kind = "pdq"
    static let formatVersion: UInt8 = 1

    /// The photo as it is first, then without bars (when it had any), then the crops.
    package var hashes: [PDQHash]

    package init(hashes: [PDQHash]) {
        self.hashes = hashes
    }

    /// The crops kept: the share of each side, and where the crop sits (0 top/left, 0.5 centre, 1 bottom/right).
    static let crops: [(share: Double, x: Double, y: Double)] = [
        (0.95, 0.5, 0.5), (0.95, 0, 0), (0.95, 1, 0), (0.95, 0, 1), (0.95, 1, 1), (0.9, 0.5, 0.5),
    ]

    /// Each turn reduced from the image, with the turn that is its transpose.
    private static let turns: [(Dihedral, Dihedral)] = [
        (.original, .transpose), (.mirror, .rotate270), (.flip, .rotate90),
        (.rotate180, .antiTranspose),
    ]

    /// A decoded photo's fingerprint, and the probes a new photo is compared by:
    /// the whole (and trimmed) photo in all eight orientations, a rotated or
    /// mirrored copy being the cheapest disguise, and its crops as they are, for
    /// when the earlier proof was itself the crop.
    package static func analyse(_ image: LumaImage) -> (fingerprint: ProofFingerprint, probes: [Probe]) {
        let trimmed = image.trimmingUniformBars()
        let wholes = trimmed == image ? [image] : [image, trimmed]
        var hashes: [PDQHash] = []
        var probes: [Probe] = []
        for whole in wholes {
            // Four turns reduced; the other four are their transposes, read off the samples.
            for (turn, transposedTurn) in Self.turns {
                let samples = PDQ.samples(turn.apply(whole))
                let hash = PDQ.hash(samples: samples)
                if turn == .original { hashes.append(hash) }
                probes.append(Probe(hash: hash, orientation: turn))
                probes.append(Probe(hash: PDQ.hash(samples: PDQ.transposed(samples)), orientation: transposedTurn))
            }
        }
        for crop in crops {
            let hash = PDQ.hash(trimmed.crop(keeping: crop.share, x: crop.x, y: crop.y))
            hashes.append(hash)
            probes.append(Probe(hash: hash, orientation: .original))
        }
        return (ProofFingerprint(hashes: hashes), probes)
    }

    /// The quality of the whole photo's hash.
    package var quality: Int { hashes.first?.quality ?? 0 }

    // MARK: Bytes, as the host keeps them

    /// Version 1, a count, then per hash its quality and 32 bytes (least significant first).
    package var bytes: [UInt8] {
        var out: [UInt8] = [Self.formatVersion, UInt8(clamping: hashes.count)]
        for hash in hashes.prefix(255) {
            out.append(UInt8(clamping: hash.quality))
            for word in hash.words {
                for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
            }
        }
        return out
    }
}

/// The closest an earlier proof came to a new one.
/// One hash of a new photo, in one orientation.
package struct Probe: Equatable, Sendable {
    package var hash: PDQHash
    package var orientation: Dihedral
}

package struct FingerprintMatch: Equatable, Sendable {
    package var proofId: Int64
    package var distance: Int
    package var orientation: Dihedral
}

package enum FingerprintMatcher {
    /// The nearest earlier proof within maxDistance, comparing only hashes of at
    /// least minQuality (a flat image's hash says little and matches too easily).
    /// Reads the kept bytes in place: thousands of proofs, no copies.
    package static func nearest(
        _ probes: [Probe], among earlier: [(proofId: Int64, bytes: [UInt8])], maxDistance: Int,
        minQuality: Int
    ) -> FingerprintMatch? {
        let usable = probes.filter { $0.hash.quality >= minQuality }
        let words = usable.flatMap(\.hash.words)
        var best: FingerprintMatch?
        for (proofId, bytes) in earlier {
            guard bytes.count >= 2, bytes[0] == ProofFingerprint.formatVersion, bytes.count == 2 + Int(bytes[1]) * 33 else { continue }
            bytes.withUnsafeBytes { raw in
                for index in 0..<Int(raw[1]) {
                    let base = 2 + index * 33
                    guard Int(raw[base]) >= minQuality else { continue }
                    let w0 = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base + 1, as: UInt64.self))
                    let w1 = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base + 9, as: UInt64.self))
                    let w2 = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base + 17, as: UInt64.self))
                    let w3 = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base + 25, as: UInt64.self))
                    for probe in 0..<usable.count {
                        let distance =
                            (words[4 * probe] ^ w0).nonzeroBitCount + (words[4 * probe + 1] ^ w1).nonzeroBitCount
                            + (words[4 * probe + 2] ^ w2).nonzeroBitCount + (words[4 * probe + 3] ^ w3).nonzeroBitCount
                        if distance <= maxDistance, distance < (best?.distance ?? Int.max) {
                            best = FingerprintMatch(proofId: proofId, distance: distance, orientation: usable[probe].orientation)
                        }
                    }
                }
            }
        }
        return best
    }
}
