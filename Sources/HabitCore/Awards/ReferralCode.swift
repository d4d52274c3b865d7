/// A store's referral code: 8 characters from an alphabet without look-alikes
/// (no 0/O, 1/I/L), so it survives being read aloud or typed from a screenshot.
package enum ReferralCode {
    package static let alphabet = Array("23456789ABCDEFGHJKMNPQRSTUVWXYZ".utf8)
    package static let length = 8

    package static func make<Source: RandomNumberGenerator>(using source: inout Source) -> String {
        var bytes: [UInt8] = []
        for _ in 0..<length { bytes.append(alphabet[Int.random(in: 0..<alphabet.count, using: &source)]) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A code as people type it: case, spaces and dashes do not matter.
    package static func normalized(_ text: String) throws(HabitError) -> String {
        var bytes: [UInt8] = []
        for byte in text.utf8 where byte != 32 && byte != 45 {
            let upper = byte >= 97 && byte <= 122 ? byte - 32 : byte
            guard alphabet.contains(upper), bytes.count < length else {
                throw .invalid("'\(text.prefix(40))' is not a referral code: \(length) characters from \(String(decoding: alphabet, as: UTF8.self))")
            }
            bytes.append(upper)
        }
        guard bytes.count == length else {
            throw .invalid("'\(text.prefix(40))' is not a referral code: \(length) characters from \(String(decoding: alphabet, as: UTF8.self))")
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
