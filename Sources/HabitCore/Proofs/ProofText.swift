/// The media types of proofs: given and checked, or guessed from the bytes.
package enum ProofText {
    /// A caller's media type, checked as type/subtype of printable ASCII, lowercased.
    package static func validMediaType(_ text: String) throws(HabitError) -> String {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, text.utf8.count <= 100,
            text.utf8.allSatisfy({ $0 > 32 && $0 < 127 })
        else { throw .invalid("media type '\(text.prefix(100))' is not type/subtype") }
        return text.lowercased()
    }

    /// The media type the first bytes say (JPEG, PNG), else application/octet-stream.
    package static func guessMediaType(_ bytes: [UInt8]) -> String {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        return "application/octet-stream"
    }
}
