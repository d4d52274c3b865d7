import HabitPlatform

/// The command line as the kernel gave it. CommandLine.arguments replaces bytes that are
/// not UTF-8 with U+FFFD, so a path such as `--db $'caf\xe9.db'` would name a different
/// file; habitctl refuses such an argument (or $HABITCORE_DB) instead, naming it.
enum RawArguments {
    /// The arguments after the program name, or a usage error naming the first one that
    /// is not UTF-8.
    static func validated() throws(CLIError) -> [String] {
        var result: [String] = []
        for index in 1..<max(1, Int(CommandLine.argc)) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            let bytes = bytesOf(pointer)
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw .usage("argument \(index) is not UTF-8 (\(escaped(bytes))); habitctl takes paths and names in UTF-8 only")
            }
            result.append(text)
        }
        if let pointer = getenv("HABITCORE_DB") {
            let bytes = bytesOf(pointer)
            if String(validating: bytes, as: UTF8.self) == nil {
                throw .usage("$HABITCORE_DB is not UTF-8 (\(escaped(bytes))); habitctl takes paths in UTF-8 only")
            }
        }
        return result
    }

    private static func bytesOf(_ pointer: UnsafePointer<CChar>) -> [UInt8] {
        Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) }
    }

    /// The bytes as shell-quotable text: printable ASCII kept, the rest as \xHH.
    static func escaped(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return bytes.map { byte in
            (0x20..<0x7f).contains(byte) && byte != 0x5c ? String(UnicodeScalar(byte)) : "\\x\(digits[Int(byte >> 4)])\(digits[Int(byte & 15)])"
        }.joined()
    }
}
