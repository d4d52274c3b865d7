/// A small JSON reader and writer of our own (the library does not use Foundation).
/// The reader is for untrusted input: nesting depth and size are bounded, every
/// escape and every UTF-8 sequence is checked, numbers must be finite.
package enum JSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    /// Keys in document order; duplicate keys are refused by the reader.
    case object([(String, JSON)])

    package static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    package subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    package static let maxDepth = 64
    package static let maxBytes = 512 * 1024 * 1024

    package static func parse(_ text: String) throws(HabitError) -> JSON {
        try parse(Array(text.utf8))
    }

    package static func parse(_ bytes: [UInt8]) throws(HabitError) -> JSON {
        guard bytes.count <= maxBytes else { throw .invalid("JSON text is larger than \(maxBytes) bytes") }
        var reader = JSONReader(bytes: bytes)
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == bytes.count else { throw reader.error("unexpected text after the JSON value") }
        return value
    }

    /// Compact text, keys in the order given.
    package var text: String {
        var bytes: [UInt8] = []
        write(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    package func write(into out: inout String) {
        out += text
    }

    /// Written as UTF-8 bytes: appending a byte is a store, where appending to a String
    /// goes through its storage checks on every piece (a widget's snapshot is written cold).
    package func write(into out: inout [UInt8]) {
        switch self {
        case .null: out += "null".utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .int(let i): JSON.writeInt(i, into: &out)
        case .double(let d):
            if d.isFinite {
                // Integral values print without a fraction so they read back as integers.
                if d == d.rounded(), abs(d) < 1e15 { JSON.writeInt(Int64(d), into: &out) } else { out += String(d).utf8 }
            } else {
                out += "null".utf8
            }
        case .string(let s): JSON.writeString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSON.writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Decimal digits, as String(i) writes them.
    private static func writeInt(_ i: Int64, into out: inout [UInt8]) {
        if i < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = i.magnitude
        let start = out.count
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        out[start...].reverse()
    }

    private static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings need no escape: appended whole, not a scalar at a time.
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }) {
            out += s.utf8
            out.append(UInt8(ascii: "\""))
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\"".utf8
            case "\\": out += "\\\\".utf8
            case "\n": out += "\\n".utf8
            case "\r": out += "\\r".utf8
            case "\t": out += "\\t".utf8
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    out += ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8
                } else {
                    out += String(scalar).utf8
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

private struct JSONReader {
    let bytes: [UInt8]
    var index = 0

    func error(_ message: String) -> HabitError {
        .invalid("JSON: \(message) at byte \(index)")
    }

    mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    mutating func value(depth: Int) throws(HabitError) -> JSON {
        guard depth < JSON.maxDepth else { throw error("nesting deeper than \(JSON.maxDepth)") }
        guard index < bytes.count else { throw error("unexpected end of text") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return try number()
        }
    }

    private mutating func literal(_ word: String) throws(HabitError) {
        let expected = Array(word.utf8)
        guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw error("unexpected character")
        }
        index += expected.count
    }

    private mutating func object(depth: Int) throws(HabitError) -> JSON {
        index += 1
        var members: [(String, JSON)] = []
        var keys = Set<String>()
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
            let key = try string()
            guard keys.insert(key).inserted else { throw error("duplicate key '\(key.prefix(40))'") }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipSpace()
            members.append((key, try value(depth: depth + 1)))
            skipSpace()
            guard index < bytes.count else { throw error("unterminated object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw error("expected ',' or '}'")
        }
    }

    private mutating func array(depth: Int) throws(HabitError) -> JSON {
        index += 1
        var items: [JSON] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard index < bytes.count else { throw error("unterminated array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            throw error("expected ',' or ']'")
        }
    }

    private mutating func hex4() throws(HabitError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let digit: UInt32
            switch b {
            case 48...57: digit = UInt32(b - 48)
            case 65...70: digit = UInt32(b - 55)
            case 97...102: digit = UInt32(b - 87)
            default: throw error("bad \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func string() throws(HabitError) -> String {
        index += 1
        // Runs between escapes are validated and appended whole: appended a scalar at a
        // time, they cost most of an import's parsing.
        var text = ""
        var runStart = index
        func flushRun(_ reader: JSONReader, upTo end: Int, into text: inout String) throws(HabitError) {
            guard runStart < end else { return }
            // Through a buffer pointer (an array slice went through generic witnesses for
            // every byte); ASCII, most of a document, needs no validating (which looks up
            // generic metadata on every call).
            let chunk = reader.bytes.withUnsafeBufferPointer { (all) -> String? in
                let run = UnsafeBufferPointer(rebasing: all[runStart..<end])
                if run.allSatisfy({ $0 < 0x80 }) { return String(decoding: run, as: UTF8.self) }
                return String(validating: run, as: UTF8.self)
            }
            guard let chunk else { throw reader.error("invalid UTF-8 in string") }
            if text.isEmpty { text = chunk } else { text += chunk }
        }
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                try flushRun(self, upTo: index, into: &text)
                index += 1
                return text
            }
            if b < 0x20 { throw error("control character in string") }
            if b != UInt8(ascii: "\\") { index += 1; continue }
            try flushRun(self, upTo: index, into: &text)
            index += 1
            guard index < bytes.count else { throw error("unterminated escape") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): text.unicodeScalars.append("\"")
            case UInt8(ascii: "\\"): text.unicodeScalars.append("\\")
            case UInt8(ascii: "/"): text.unicodeScalars.append("/")
            case UInt8(ascii: "b"): text.unicodeScalars.append("\u{8}")
            case UInt8(ascii: "f"): text.unicodeScalars.append("\u{C}")
            case UInt8(ascii: "n"): text.unicodeScalars.append("\n")
            case UInt8(ascii: "r"): text.unicodeScalars.append("\r")
            case UInt8(ascii: "t"): text.unicodeScalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800...0xDBFF).contains(code) {
                    guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw error("lone surrogate in string")
                    }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("bad surrogate pair") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("lone surrogate in string") }
                text.unicodeScalars.append(scalar)
            default:
                throw error("unknown escape")
            }
            runStart = index
        }
    }

    private mutating func number() throws(HabitError) -> JSON {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let digitsStart = index
        while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
        guard index > digitsStart else { throw error("unexpected character") }
        if bytes[digitsStart] == 48, index - digitsStart > 1 { throw error("leading zero in number") }
        var integral = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            integral = false
            index += 1
            let fractionStart = index
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
            guard index > fractionStart else { throw error("digits expected after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            integral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            let exponentStart = index
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
            guard index > exponentStart else { throw error("digits expected in exponent") }
        }
        guard index - start <= 400 else { throw error("number too long") }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if integral, let value = Int64(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else { throw error("number out of range") }
        return .double(value)
    }
}

// Typed access for readers of documents: each names the field it failed on.
extension JSON {
    package func string(_ key: String) throws(HabitError) -> String {
        guard case .string(let s)? = self[key] else { throw .invalid("'\(key)' must be a string") }
        return s
    }

    package func optionalString(_ key: String) throws(HabitError) -> String? {
        switch self[key] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        default: throw .invalid("'\(key)' must be a string or null")
        }
    }

    package func int(_ key: String) throws(HabitError) -> Int64 {
        guard case .int(let i)? = self[key] else { throw .invalid("'\(key)' must be an integer") }
        return i
    }

    package func optionalInt(_ key: String) throws(HabitError) -> Int64? {
        switch self[key] {
        case nil, .null?: return nil
        case .int(let i)?: return i
        default: throw .invalid("'\(key)' must be an integer or null")
        }
    }

    package func number(_ key: String) throws(HabitError) -> Double {
        switch self[key] {
        case .int(let i)?: return Double(i)
        case .double(let d)?: return d
        default: throw .invalid("'\(key)' must be a number")
        }
    }

    package func bool(_ key: String) throws(HabitError) -> Bool {
        guard case .bool(let b)? = self[key] else { throw .invalid("'\(key)' must be true or false") }
        return b
    }

    /// An object field that may be absent or null.
    package func optionalObject(_ key: String) throws(HabitError) -> JSON? {
        switch self[key] {
        case nil, .null?: return nil
        case .object?: return self[key]
        default: throw .invalid("'\(key)' must be an object or null")
        }
    }

    package func array(_ key: String) throws(HabitError) -> [JSON] {
        guard case .array(let items)? = self[key] else { throw .invalid("'\(key)' must be an array") }
        return items
    }
}
