import HabitCore
import HabitFiles
import HabitPlatform

/// Evidence on disk: reading the caller's file, and a temporary file for evidence
/// given as bytes (executables and the plugin runner read a path).
package enum EvidenceFile {
    package static func read(_ path: String, maxBytes: Int) throws(HabitError) -> [UInt8] {
        guard !path.isEmpty else { throw .invalid("the evidence path is empty") }
        switch WholeFile.read(path, maxBytes: maxBytes) {
        case .success(let bytes): return bytes
        case .failure(.missing): throw .notFound("no evidence file '\(path)'")
        case .failure(.notRegular): throw .invalid("'\(path)' is not a regular file")
        case .failure(.tooLarge): throw .invalid("the evidence is larger than \(maxBytes >> 20) MiB")
        case .failure(.unreadable(let code)): throw HabitError(.io, "cannot read '\(path)': \(String(cString: strerror(code)))")
        }
    }

    /// Runs body with a file holding the evidence: the caller's, or a temporary one
    /// (0600, removed afterwards).
    package static func withFile<T>(path: String?, bytes: [UInt8], _ body: (String) throws(HabitError) -> T) throws(HabitError) -> T {
        if let path { return try body(path) }
        var template = Array(((getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp") + "/habitcore-proof-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard fd >= 0 else { throw HabitError(.io, "cannot write a temporary evidence file") }
        let temporary = String(cString: template.map { $0 } + [0])
        defer { unlink(temporary) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress.map { $0 + written }, $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            written += count
        }
        close(fd)
        guard written == bytes.count else { throw HabitError(.io, "cannot write a temporary evidence file") }
        return try body(temporary)
    }
}
