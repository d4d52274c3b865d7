import CHabitCore
import Foundation
import HabitHub
import XCTest

/// A server with the hub schema, alice and bob (devices) and app (a service role),
/// shared by a test class: started in its class setUp, stopped in its class tearDown.
class HubTestCase: StoreTestCase {
    nonisolated(unsafe) static var server: PostgresTestServer?
    static let passwords = ["alice": "alice-pw", "bob": "bob-pw", "app": "app-pw"]

    override class func setUp() {
        super.setUp()
        do {
            let server = try PostgresTestServer()
            Self.server = server
            var admin: OpaquePointer?
            guard hc_hub_open(&admin, server.adminConninfo) == HC_OK else { return }
            defer { _ = hc_hub_close(admin) }
            var version: Int32 = 0
            guard hc_hub_init(&version, admin) == HC_OK else { return }
            _ = hc_hub_user_add(admin, "alice", passwords["alice"], HC_HUB_USER_DEVICE)
            _ = hc_hub_user_add(admin, "bob", passwords["bob"], HC_HUB_USER_DEVICE)
            _ = hc_hub_user_add(admin, "app", passwords["app"], HC_HUB_USER_SERVICE)
        } catch {
            Self.server = nil
        }
    }

    override class func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    override func setUpWithError() throws {
        guard Self.server != nil else { throw XCTSkip("no PostgreSQL test server (PostgreSQL 15 missing or failed to start)") }
        try super.setUpWithError()
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: dir)
        super.tearDown()
    }

    var server: PostgresTestServer {
        get throws {
            guard let server = Self.server else { throw XCTSkip("no PostgreSQL test server") }
            return server
        }
    }

    func ok(_ status: Int32, _ what: String = "", file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(
            status, HC_OK, "\(what): \(String(cString: hc_hub_last_error_message())) / \(String(cString: hc_last_error_message()))", file: file, line: line)
    }

    func hub(_ user: String) throws -> OpaquePointer {
        var hub: OpaquePointer?
        let status = hc_hub_open(&hub, try server.conninfo(user, Self.passwords[user] ?? ""))
        guard status == HC_OK, let hub else { throw NSError(domain: String(cString: hc_hub_last_error_message()), code: Int(status)) }
        return hub
    }

    func admin() throws -> PostgresConnection {
        do { return try PostgresConnection(try server.adminConninfo) } catch let error as PostgresError { throw NSError(domain: error.message, code: 1) }
    }

    func markDone(_ store: OpaquePointer, _ habit: Int64, _ date: String) {
        ok(append(store, habit, on: date).0, "entry")
    }

    func status(_ hub: OpaquePointer, actAs: String? = nil) -> hc_hub_status {
        var status = hc_hub_status()
        ok(hc_hub_status_init(&status, UInt32(MemoryLayout<hc_hub_status>.size)))
        let code = actAs.map { name in name.withCString { hc_hub_status_get(&status, hub, $0) } } ?? hc_hub_status_get(&status, hub, nil)
        var retried = code
        for _ in 0..<3 where retried == HC_E_IO {
            retried = actAs.map { name in name.withCString { hc_hub_status_get(&status, hub, $0) } } ?? hc_hub_status_get(&status, hub, nil)
        }
        ok(retried, "status")
        return status
    }

    /// Syncs, retrying after failures (a killed connection): the call is safe to repeat.
    @discardableResult
    func sync(_ hub: OpaquePointer, _ store: OpaquePointer, flags: UInt32 = UInt32(HC_HUB_PUSH | HC_HUB_PULL)) -> hc_hub_sync_summary {
        var summary = hc_hub_sync_summary()
        var options = hc_hub_sync_options()
        ok(hc_hub_sync_summary_init(&summary, UInt32(MemoryLayout<hc_hub_sync_summary>.size)))
        ok(hc_hub_sync_options_init(&options, UInt32(MemoryLayout<hc_hub_sync_options>.size)))
        options.flags = flags
        // A connection killed earlier (another test step terminated this user's
        // backends) fails one call; the next reconnects. Retrying is the contract.
        var status = hc_hub_sync(&summary, hub, store, &options)
        for _ in 0..<3 where status == HC_E_IO { status = hc_hub_sync(&summary, hub, store, &options) }
        ok(status, "sync")
        return summary
    }
}
