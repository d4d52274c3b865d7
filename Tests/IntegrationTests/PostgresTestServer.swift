import CHabitCore
import Foundation
import HabitHub
import XCTest

/// A real PostgreSQL 15 for the hub's tests: initdb and pg_ctl from Debian's
/// postgresql-15, run as the postgres user (we are root), listening only on a unix
/// socket in a temporary folder, SCRAM passwords for everyone. Stopped by stop().
final class PostgresTestServer {
    static let bin = "/usr/lib/postgresql/15/bin"
    let folder: String
    let adminPassword = "admin-" + UUID().uuidString

    init() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.bin + "/initdb") else {
            throw XCTSkip("PostgreSQL 15 server binaries are not in \(Self.bin)")
        }
        // Short: a unix socket's path has a limit of 107 bytes.
        var template = Array("/tmp/hcpg-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw NSError(domain: "mkdtemp failed", code: 1) }
        folder = String(cString: made)
        try adminPassword.write(toFile: folder + "/pwfile", atomically: true, encoding: .utf8)
        try run(["chown", "-R", "postgres:postgres", folder])
        try run(["chmod", "700", folder])
        try asPostgres([
            Self.bin + "/initdb", "-D", folder + "/data", "-U", "postgres", "--pwfile=" + folder + "/pwfile",
            "-A", "scram-sha-256", "-E", "UTF8", "--locale=C", "-N",
        ])
        try asPostgres([
            Self.bin + "/pg_ctl", "-D", folder + "/data", "-l", folder + "/server.log", "-w", "-o",
            "-k \(folder) -c listen_addresses= -c fsync=off -c max_connections=60", "start",
        ])
    }

    func stop() {
        try? asPostgres([Self.bin + "/pg_ctl", "-D", folder + "/data", "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    func conninfo(_ user: String, _ password: String) -> String {
        "host=\(folder) dbname=postgres user=\(user) password=\(password) connect_timeout=10"
    }

    var adminConninfo: String { conninfo("postgres", adminPassword) }

    /// psql, the real client, as user: one result per statement, unaligned, no headers.
    func psql(_ user: String, _ password: String, _ sql: String, database: String = "postgres") throws -> ProcessResult {
        try runProcess(
            ["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=0", "-h", folder, "-U", user, "-d", database, "-c", sql],
            environment: ["PGPASSWORD": password])
    }

    /// Through system(3), not Foundation's Process: the server pg_ctl starts would
    /// inherit the pipe Process watches for its child's exit and keep it open.
    private func asPostgres(_ arguments: [String]) throws {
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let status = system("runuser -u postgres -- \(quoted) >>'\(folder)/tools.log' 2>&1 </dev/null")
        guard status == 0 else {
            let log = (try? String(contentsOfFile: folder + "/tools.log", encoding: .utf8)) ?? ""
            throw NSError(domain: "\(arguments.joined(separator: " ")) failed (\(status)): \(log)", code: Int(status))
        }
    }

    @discardableResult
    private func run(_ arguments: [String]) throws -> ProcessResult {
        let result = try runProcess(arguments)
        guard result.status == 0 else {
            throw NSError(domain: "\(arguments.joined(separator: " ")) failed: \(result.stdout)\(result.stderr)", code: Int(result.status))
        }
        return result
    }
}
