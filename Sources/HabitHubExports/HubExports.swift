import CHabitCore
import HabitCore
import HabitHub
import HabitPlatform

// The hc_hub_* exports (include/habitcore_hub.h): validate, convert, call the hub,
// convert back. Nothing here decides anything.

/// The thread-local message behind hc_hub_last_error_message().
enum HubThreadError {
    private static let messages = ThreadLocalMessage()
    static func set(_ message: String) { messages.set(message) }
    static func clear() { messages.clear() }
    static var message: UnsafePointer<CChar> { messages.message ?? emptyText }
}

/// Swift string literals are stored NUL-terminated: "" as a C string.
private var emptyText: UnsafePointer<CChar> {
    let text: StaticString = ""
    return UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
}

private func fail(_ error: HabitError) -> Int32 {
    HubThreadError.set(error.message)
    return error.code.rawValue
}

/// What an hc_hub pointer stands for.
final class HubHandle: @unchecked Sendable {
    let lock = Lock()
    let hub: Hub
    var message: UnsafeMutablePointer<CChar>?
    var closed = false
    init(hub: Hub) { self.hub = hub }
    deinit { free(message) }
}

/// Every live handle, so a NULL, closed or foreign pointer is refused, not followed.
enum HubRegistry {
    private static let lock = Lock()
    nonisolated(unsafe) private static var live: [UInt: HubHandle] = [:]

    static func add(_ handle: HubHandle) -> OpaquePointer {
        let pointer = Unmanaged.passRetained(handle).toOpaque()
        lock.locked { live[UInt(bitPattern: pointer)] = handle }
        return OpaquePointer(pointer)
    }

    static func handle(_ pointer: OpaquePointer?) -> HubHandle? {
        guard let pointer else { return nil }
        return lock.locked { live[UInt(bitPattern: UnsafeRawPointer(pointer))] }
    }

    static func remove(_ pointer: OpaquePointer) -> HubHandle? {
        lock.locked {
            let key = UInt(bitPattern: UnsafeRawPointer(pointer))
            guard let handle = live.removeValue(forKey: key) else { return nil }
            Unmanaged<HubHandle>.fromOpaque(UnsafeRawPointer(pointer)).release()
            return handle
        }
    }
}

private let badHandle = HabitError(.misuse, "invalid hub handle: NULL, closed, or not from hc_hub_open")

/// Runs body with the hub behind a handle, under the handle's lock; a failure is
/// recorded on the handle and on the thread.
private func withHub(_ pointer: OpaquePointer?, _ body: (Hub) throws(HabitError) -> Void) -> Int32 {
    guard let handle = HubRegistry.handle(pointer) else { return fail(badHandle) }
    return handle.lock.locked { () -> Int32 in
        guard !handle.closed else { return fail(badHandle) }
        do throws(HabitError) {
            try body(handle.hub)
            HubThreadError.clear()
            return HC_OK
        } catch {
            free(handle.message)
            handle.message = strdup(error.message)
            return fail(error)
        }
    }
}

private func string(_ pointer: UnsafePointer<CChar>?, _ field: String) throws(HabitError) -> String {
    guard let pointer else { throw .invalid("\(field) is NULL") }
    guard let text = String(validatingCString: pointer) else { throw .invalid("\(field) is not valid UTF-8") }
    return text
}

private func optionalString(_ pointer: UnsafePointer<CChar>?, _ field: String) throws(HabitError) -> String? {
    guard pointer != nil else { return nil }
    return try string(pointer, field)
}

/// A caller's struct whose struct_size is the one layout we know.
private func sized<T>(_ pointer: UnsafePointer<T>, _ name: String) throws(HabitError) {
    let size = Int(UnsafeRawPointer(pointer).load(as: UInt32.self))
    guard size == MemoryLayout<T>.size else {
        throw .invalid("\(name).struct_size is \(size), expected \(MemoryLayout<T>.size): initialise it with its HC_HUB_*_INIT macro")
    }
}

@c @implementation
public func hc_hub_open(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ conninfo: UnsafePointer<CChar>?) -> Int32 {
    guard let out else { return fail(.invalid("out is NULL")) }
    out.pointee = nil
    do throws(HabitError) {
        let hub = try Hub(conninfo: try string(conninfo, "conninfo"))
        out.pointee = HubRegistry.add(HubHandle(hub: hub))
        HubThreadError.clear()
        return HC_OK
    } catch {
        return fail(error)
    }
}

@c @implementation
public func hc_hub_close(_ hub: OpaquePointer?) -> Int32 {
    guard let hub else { return HC_OK }
    guard let handle = HubRegistry.remove(hub) else { return fail(badHandle) }
    handle.lock.locked { handle.closed = true }
    HubThreadError.clear()
    return HC_OK
}

@c @implementation
public func hc_hub_errmsg(_ hub: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let handle = HubRegistry.handle(hub) else { return emptyText }
    return handle.lock.locked { handle.message.map { UnsafePointer($0) } ?? emptyText }
}

@c @implementation
public func hc_hub_last_error_message() -> UnsafePointer<CChar>? {
    HubThreadError.message
}

@c @implementation
public func hc_hub_init(_ out_version: UnsafeMutablePointer<Int32>?, _ hub: OpaquePointer?) -> Int32 {
    withHub(hub) { hub throws(HabitError) in
        let version = try hub.initialise()
        out_version?.pointee = version
    }
}

@c @implementation
public func hc_hub_user_add(_ hub: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ password: UnsafePointer<CChar>?, _ kind: Int32) -> Int32 {
    withHub(hub) { hub throws(HabitError) in
        let name = try string(name, "name")
        let password = try string(password, "password")
        guard kind == HC_HUB_USER_DEVICE || kind == HC_HUB_USER_SERVICE else { throw .invalid("kind \(kind) is not HC_HUB_USER_DEVICE or HC_HUB_USER_SERVICE") }
        try hub.addUser(name, password: password, service: kind == HC_HUB_USER_SERVICE)
    }
}

@c @implementation
public func hc_hub_sync(
    _ out: UnsafeMutablePointer<hc_hub_sync_summary>?, _ hub: OpaquePointer?, _ store: OpaquePointer?,
    _ options: UnsafePointer<hc_hub_sync_options>?
) -> Int32 {
    withHub(hub) { hub throws(HabitError) in
        if let out { try sized(UnsafePointer(out), "out") }
        guard let store else { throw HabitError(.misuse, "store is NULL") }
        var flags = UInt32(HC_HUB_PUSH | HC_HUB_PULL)
        var actAs: String?
        if let options {
            try sized(options, "options")
            flags = options.pointee.flags
            guard flags != 0, flags & ~UInt32(HC_HUB_PUSH | HC_HUB_PULL) == 0 else {
                throw .invalid("options.flags \(flags): HC_HUB_PUSH, HC_HUB_PULL or both")
            }
            actAs = try optionalString(options.pointee.act_as, "options.act_as")
        }
        let result = try hub.sync(StoreSync(store), push: flags & UInt32(HC_HUB_PUSH) != 0, pull: flags & UInt32(HC_HUB_PULL) != 0, actAs: actAs)
        out?.pointee = hc_hub_sync_summary(
            struct_size: UInt32(MemoryLayout<hc_hub_sync_summary>.size), records_pushed: result.pushed, records_pulled: result.pulled,
            ops_new: result.opsNew)
    }
}

@c @implementation
public func hc_hub_status_get(_ out: UnsafeMutablePointer<hc_hub_status>?, _ hub: OpaquePointer?, _ act_as: UnsafePointer<CChar>?) -> Int32 {
    withHub(hub) { hub throws(HabitError) in
        guard let out else { throw .invalid("out is NULL") }
        try sized(UnsafePointer(out), "out")
        let status = try hub.status(actAs: try optionalString(act_as, "act_as"))
        out.pointee = hc_hub_status(
            struct_size: UInt32(MemoryLayout<hc_hub_status>.size), schema_version: status.schemaVersion, records: status.records,
            replicas: status.replicas, referral_codes: status.referralCodes, referrals_made: status.referralsMade,
            referral_redeemed: status.referralRedeemed)
    }
}

@c @implementation
public func hc_hub_referral_register(_ hub: OpaquePointer?, _ code: UnsafePointer<CChar>?) -> Int32 {
    withHub(hub) { hub throws(HabitError) in try hub.registerReferral(try string(code, "code")) }
}

@c @implementation
public func hc_hub_referral_redeem(_ hub: OpaquePointer?, _ code: UnsafePointer<CChar>?) -> Int32 {
    withHub(hub) { hub throws(HabitError) in try hub.redeemReferral(try string(code, "code")) }
}

/// Records the message behind a failed hc_hub_<struct>_init (Sources/HabitHubDefaults).
/// Not exported (no hc_ prefix).
@_cdecl("habitcore_hub_internal_fail")
func habitcoreHubInternalFail(_ status: Int32, _ message: UnsafePointer<CChar>?) -> Int32 {
    HubThreadError.set(message.map { String(cString: $0) } ?? "")
    return status
}
