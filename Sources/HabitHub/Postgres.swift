import CLibPQ
import HabitCore
import HabitPlatform

/// A value sent to PostgreSQL: every query is parameterised, never spliced.
package enum SQLParam {
    case text(String)
    case bytes([UInt8])
    case int(Int64)
}

/// A failure PostgreSQL reported (sqlstate set) or of the connection itself.
package struct PostgresError: Error {
    package var sqlstate: String
    package var message: String

    /// The habitcore error a caller sees: refusals and lost connections are I/O (the
    /// hub is outside the process), a duplicate is a conflict.
    package var habitError: HabitError {
        switch sqlstate {
        case "23505", "42710", "HC001": return HabitError(.conflict, message)  // a duplicate row, an existing role, a record forked
        case "22023", "22P02", "23514": return HabitError(.invalid, message)
        default: return HabitError(.io, message)
        }
    }
}

/// The rows of one result, as bytes (text or binary format, as asked).
package struct SQLRows {
    package var rows: [[[UInt8]?]]

    package func text(_ row: Int, _ column: Int) -> String? {
        guard row < rows.count, column < rows[row].count, let value = rows[row][column] else { return nil }
        return String(decoding: value, as: UTF8.self)
    }

    package func int(_ row: Int, _ column: Int) -> Int64? {
        text(row, column).flatMap { Int64($0) }
    }
}

/// One libpq connection. Not thread-safe: its owner serialises calls.
package final class PostgresConnection {
    private var conn: OpaquePointer?
    private let conninfo: String

    package init(_ conninfo: String) throws(PostgresError) {
        self.conninfo = conninfo
        conn = PQconnectdb(conninfo)
        guard let conn else { throw PostgresError(sqlstate: "", message: "out of memory connecting to the hub") }
        guard PQstatus(conn) == CONNECTION_OK else {
            let message = Self.connectionMessage(conn)
            PQfinish(conn)
            self.conn = nil
            throw PostgresError(sqlstate: "08001", message: "could not connect to the hub: \(message)")
        }
    }

    deinit {
        if let conn { PQfinish(conn) }
    }

    private static func connectionMessage(_ conn: OpaquePointer) -> String {
        guard let text = PQerrorMessage(conn) else { return "unknown error" }
        return String(cString: text).trimmingTrailingNewlines()
    }

    func withConnection<T>(_ body: (OpaquePointer) -> T?) -> T? {
        guard let conn else { return nil }
        return body(conn)
    }

    /// Reconnects when the connection was lost (killed backend, restarted server).
    package func ensureConnected() throws(PostgresError) {
        if let conn, PQstatus(conn) == CONNECTION_OK { return }
        if let conn {
            PQreset(conn)
            if PQstatus(conn) == CONNECTION_OK { return }
            throw PostgresError(sqlstate: "08001", message: "could not reconnect to the hub: \(Self.connectionMessage(conn))")
        }
        conn = PQconnectdb(conninfo)
        guard let conn, PQstatus(conn) == CONNECTION_OK else {
            throw PostgresError(sqlstate: "08001", message: "could not reconnect to the hub")
        }
    }

    /// Runs one statement with parameters; rows in text (binary: false) or binary format.
    @discardableResult
    package func query(_ sql: String, _ params: [SQLParam] = [], binary: Bool = false) throws(PostgresError) -> SQLRows {
        guard let conn else { throw PostgresError(sqlstate: "08003", message: "not connected to the hub") }
        var buffers: [UnsafeMutablePointer<CChar>?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        defer { for buffer in buffers { free(buffer) } }
        for param in params {
            let bytes: [UInt8]
            switch param {
            case .text(let text): bytes = Array(text.utf8); formats.append(0)
            case .int(let value): bytes = Array(String(value).utf8); formats.append(0)
            case .bytes(let value): bytes = value; formats.append(1)
            }
            guard let buffer = malloc(bytes.count + 1)?.assumingMemoryBound(to: CChar.self) else {
                throw PostgresError(sqlstate: "53200", message: "out of memory")
            }
            bytes.withUnsafeBufferPointer { source in
                if let base = source.baseAddress { UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: source.count) }
            }
            buffer[bytes.count] = 0
            buffers.append(buffer)
            guard let length = Int32(exactly: bytes.count) else { throw PostgresError(sqlstate: "22023", message: "parameter too large") }
            lengths.append(length)
        }
        let result = buffers.withUnsafeBufferPointer { values in
            values.withMemoryRebound(to: UnsafePointer<CChar>?.self) { values in
                PQexecParams(conn, sql, Int32(params.count), nil, values.baseAddress, lengths, formats, binary ? 1 : 0)
            }
        }
        guard let result else {
            throw PostgresError(sqlstate: "08006", message: "hub query failed: \(Self.connectionMessage(conn))")
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? "08006"
            let message = PQresultErrorMessage(result).map { String(cString: $0) } ?? "unknown error"
            throw PostgresError(
                sqlstate: state, message: message.isEmpty ? "hub query failed: \(Self.connectionMessage(conn))" : message.trimmingTrailingNewlines())
        }
        let rowCount = Int(PQntuples(result))
        let columnCount = Int(PQnfields(result))
        var rows: [[[UInt8]?]] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<rowCount {
            var values: [[UInt8]?] = []
            for column in 0..<columnCount {
                if PQgetisnull(result, Int32(row), Int32(column)) != 0 {
                    values.append(nil)
                    continue
                }
                let length = Int(PQgetlength(result, Int32(row), Int32(column)))
                guard let value = PQgetvalue(result, Int32(row), Int32(column)) else { values.append(nil); continue }
                values.append(value.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) })
            }
            rows.append(values)
        }
        return SQLRows(rows: rows)
    }

    /// body inside BEGIN ... COMMIT; anything thrown rolls back (a lost connection
    /// rolls back on the server by itself).
    package func transaction<T>(_ body: () throws(PostgresError) -> T) throws(PostgresError) -> T {
        try query("BEGIN")
        do throws(PostgresError) {
            let value = try body()
            try query("COMMIT")
            return value
        } catch {
            _ = try? query("ROLLBACK")
            throw error
        }
    }
}

extension String {
    func trimmingTrailingNewlines() -> String {
        var text = self
        while text.last == "\n" { text.removeLast() }
        return text
    }
}

/// Big-endian integers of libpq's binary format.
package enum BinaryValue {
    package static func int(_ bytes: [UInt8]?) -> Int64? {
        guard let bytes, bytes.count == 2 || bytes.count == 4 || bytes.count == 8 else { return nil }
        var value: UInt64 = 0
        for byte in bytes { value = value << 8 | UInt64(byte) }
        switch bytes.count {
        case 2: return Int64(Int16(truncatingIfNeeded: value))
        case 4: return Int64(Int32(truncatingIfNeeded: value))
        default: return Int64(bitPattern: value)
        }
    }
}
