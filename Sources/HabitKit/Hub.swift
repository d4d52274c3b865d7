import CHabitCore
import HabitPlatform

/// libhabitcore_hub.so.1 (include/habitcore_hub.h), loaded at run time so that an app
/// (and habitctl) that never syncs through a hub never loads libpq. Loaded with
/// RTLD_NOW | RTLD_LOCAL and never unloaded; its functions are resolved once here.
public final class HubLibrary: Sendable {
    typealias Open = @convention(c) (UnsafeMutablePointer<OpaquePointer?>?, UnsafePointer<CChar>?) -> Int32
    typealias Close = @convention(c) (OpaquePointer?) -> Int32
    typealias Message = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    typealias LastMessage = @convention(c) () -> UnsafePointer<CChar>?
    typealias Initialise = @convention(c) (UnsafeMutablePointer<Int32>?, OpaquePointer?) -> Int32
    typealias UserAdd = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32) -> Int32
    typealias Sync =
        @convention(c) (
            UnsafeMutablePointer<hc_hub_sync_summary>?, OpaquePointer?, OpaquePointer?,
            UnsafePointer<hc_hub_sync_options>?
        ) -> Int32
    typealias StatusGet = @convention(c) (UnsafeMutablePointer<hc_hub_status>?, OpaquePointer?, UnsafePointer<CChar>?) -> Int32
    typealias Referral = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32
    typealias OptionsInit = @convention(c) (UnsafeMutablePointer<hc_hub_sync_options>?, UInt32) -> Int32
    typealias SummaryInit = @convention(c) (UnsafeMutablePointer<hc_hub_sync_summary>?, UInt32) -> Int32
    typealias StatusInit = @convention(c) (UnsafeMutablePointer<hc_hub_status>?, UInt32) -> Int32

    /// The file name the hub library ships under (its SONAME).
    public static let fileName = "libhabitcore_hub.so.1"

    /// The file it was loaded from.
    public let path: String
    let open: Open
    let close: Close
    let errmsg: Message
    let lastMessage: LastMessage
    let initialise: Initialise
    let userAdd: UserAdd
    let sync: Sync
    let statusGet: StatusGet
    let referralRegister: Referral
    let referralRedeem: Referral
    let syncOptionsInit: OptionsInit
    let syncSummaryInit: SummaryInit
    let statusInit: StatusInit

    /// Loads the hub library from the first of paths that loads (a bare file name is
    /// looked up by the dynamic loader). Throws .io when none loads (the message names
    /// every path), .corrupt when it lacks an hc_hub_* function, .misuse on a platform
    /// that loads no shared-object files (iOS and its siblings).
    public static func load(searching paths: [String] = [fileName]) throws(HabitError) -> HubLibrary {
        guard platformLoadsSharedObjectFiles else {
            throw HabitError(code: .misuse, message: "\(platformName) loads no shared-object files: no hub library there")
        }
        var reasons: [String] = []
        for path in paths {
            if let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) { return try HubLibrary(path: path, handle: handle) }
            reasons.append(dlerror().map { String(cString: $0) } ?? path)
        }
        throw HabitError(code: .io, message: "cannot load the hub library \(fileName): " + reasons.joined(separator: "; "))
    }

    private init(path: String, handle: UnsafeMutableRawPointer) throws(HabitError) {
        func symbol<T>(_ name: String, _ type: T.Type) throws(HabitError) -> T {
            guard let pointer = dlsym(handle, name) else { throw HabitError(code: .corrupt, message: "the hub library lacks \(name)") }
            return unsafeBitCast(pointer, to: type)
        }
        self.path = path
        open = try symbol("hc_hub_open", Open.self)
        close = try symbol("hc_hub_close", Close.self)
        errmsg = try symbol("hc_hub_errmsg", Message.self)
        lastMessage = try symbol("hc_hub_last_error_message", LastMessage.self)
        initialise = try symbol("hc_hub_init", Initialise.self)
        userAdd = try symbol("hc_hub_user_add", UserAdd.self)
        sync = try symbol("hc_hub_sync", Sync.self)
        statusGet = try symbol("hc_hub_status_get", StatusGet.self)
        referralRegister = try symbol("hc_hub_referral_register", Referral.self)
        referralRedeem = try symbol("hc_hub_referral_redeem", Referral.self)
        syncOptionsInit = try symbol("hc_hub_sync_options_init", OptionsInit.self)
        syncSummaryInit = try symbol("hc_hub_sync_summary_init", SummaryInit.self)
        statusInit = try symbol("hc_hub_status_init", StatusInit.self)
    }

    /// A status as a thrown HabitError, with the handle's message, else the thread's.
    func check(_ status: Int32, _ hub: OpaquePointer?) throws(HabitError) {
        guard status != HC_OK else { return }
        let message = hub.flatMap { errmsg($0) }.map { String(cString: $0) } ?? ""
        throw HabitError(
            code: HabitError.Code(rawValue: status),
            message: message.isEmpty ? lastMessage().map { String(cString: $0) } ?? "" : message)
    }

    /// A struct with the defaults its hc_hub_<struct>_init gives.
    func defaults<T>(_ initialise: (UnsafeMutablePointer<T>?, UInt32) -> Int32, _ empty: T) throws(HabitError) -> T {
        var value = empty
        try check(initialise(&value, UInt32(MemoryLayout<T>.size)), nil)
        return value
    }
}

/// What a hub sync did (hc_hub_sync_summary).
public struct HubSyncSummary: Sendable, Hashable {
    /// Records sent that the hub did not hold.
    public var recordsPushed: Int64
    /// Records received from the hub.
    public var recordsPulled: Int64
    /// Of those, ops the store had not seen.
    public var opsNew: Int64
}

/// What the hub holds for a user (hc_hub_status).
public struct HubStatus: Sendable, Hashable {
    /// The hub schema's version; 0: not initialised.
    public var schemaVersion: Int32
    /// Sync records held for the user.
    public var records: Int64
    /// Devices (replicas) that pushed for the user.
    public var replicas: Int64
    /// Referral codes the user registered.
    public var referralCodes: Int64
    /// Other users who redeemed the user's codes.
    public var referralsMade: Int64
    /// The user redeemed someone's code.
    public var referralRedeemed: Bool
}

/// A connection to a PostgreSQL sync hub (hc_hub_open); it closes itself when the
/// last reference goes, or with close(). Calls on one Hub are serialised by the library.
public final class Hub: @unchecked Sendable {
    /// Guards handle: close may come from any thread.
    private let lock = Lock()
    private var handle: OpaquePointer?
    /// The library it runs through.
    public let library: HubLibrary

    /// Connects with a libpq connection string or URI (hc_hub_open). Throws .io
    /// (could not connect), .invalid.
    public init(conninfo: String, library: HubLibrary) throws(HabitError) {
        self.library = library
        let strings = CStrings()
        let text = try strings(conninfo, "conninfo")
        var opened: OpaquePointer?
        try withExtendedLifetime(strings) { () throws(HabitError) in try library.check(library.open(&opened, text), nil) }
        guard let opened else { throw HabitError(code: .internal, message: "hc_hub_open gave HC_OK and no handle") }
        handle = opened
    }

    deinit {
        if let handle { _ = library.close(handle) }
    }

    /// Closes the connection now (hc_hub_close); later calls throw .misuse.
    public func close() throws(HabitError) {
        guard
            let closing = lock.locked({ () -> OpaquePointer? in
                defer { handle = nil }
                return handle
            })
        else { return }
        try library.check(library.close(closing), nil)
    }

    private func withHandle<T>(_ body: (OpaquePointer) throws(HabitError) -> T) throws(HabitError) -> T {
        try withExtendedLifetime(self) { () throws(HabitError) -> T in
            guard let open = lock.locked({ handle }) else { throw HabitError(code: .misuse, message: "the hub connection is closed") }
            return try body(open)
        }
    }

    /// Admin (a superuser): creates or migrates the hub schema, hides from each user
    /// what PostgreSQL would show of the others, and gives its version (hc_hub_init).
    /// Throws .io (connection or permission), .tooNew.
    @discardableResult
    public func initialise() throws(HabitError) -> Int32 {
        try withHandle { hub throws(HabitError) in
            var version: Int32 = 0
            try library.check(library.initialise(&version, hub), hub)
            return version
        }
    }

    /// Admin: creates a login role for a user (hc_hub_user_add). Throws .invalid,
    /// .conflict (the role exists), .io.
    public func addUser(name: String, password: String, kind: HubUserKind = .device) throws(HabitError) {
        let strings = CStrings()
        let cName = try strings(name, "name"), cPassword = try strings(password, "password")
        try withExtendedLifetime(strings) { () throws(HabitError) in
            try withHandle { hub throws(HabitError) in try library.check(library.userAdd(hub, cName, cPassword, kind.rawValue), hub) }
        }
    }

    /// Pushes what the hub lacks and pulls what the store lacks (hc_hub_sync); safe to
    /// retry. actAs names the user when connected as a service role. The hub library
    /// reaches the store through the libhabitcore.so.1 it links, so the store must be
    /// open in that library (as habitctl's are); another copy of the engine's handle is
    /// .misuse. Throws .io, .invalid, .corrupt, and the store's sync codes.
    @discardableResult
    public func sync(_ store: Store, direction: HubSyncDirection = [.push, .pull], actAs: String? = nil) throws(HabitError) -> HubSyncSummary {
        let strings = CStrings()
        var options = try library.defaults(library.syncOptionsInit, hc_hub_sync_options())
        options.flags = direction.rawValue
        options.act_as = try strings(actAs, "actAs")
        var summary = try library.defaults(library.syncSummaryInit, hc_hub_sync_summary())
        try withExtendedLifetime(strings) { () throws(HabitError) in
            try withHandle { hub throws(HabitError) in
                try store.withHandle { storeHandle throws(HabitError) in
                    try library.check(library.sync(&summary, hub, storeHandle, &options), hub)
                }
            }
        }
        return HubSyncSummary(recordsPushed: summary.records_pushed, recordsPulled: summary.records_pulled, opsNew: summary.ops_new)
    }

    /// What the hub holds for the connected user, or for actAs when connected as a
    /// service role (hc_hub_status_get). Throws .io, .invalid.
    public func status(actAs: String? = nil) throws(HabitError) -> HubStatus {
        let strings = CStrings()
        let name = try strings(actAs, "actAs")
        var status = try library.defaults(library.statusInit, hc_hub_status())
        try withExtendedLifetime(strings) { () throws(HabitError) in
            try withHandle { hub throws(HabitError) in try library.check(library.statusGet(&status, hub, name), hub) }
        }
        return HubStatus(
            schemaVersion: status.schema_version, records: status.records, replicas: status.replicas,
            referralCodes: status.referral_codes, referralsMade: status.referrals_made,
            referralRedeemed: status.referral_redeemed != 0)
    }

    /// Registers a referral code for the connected user (hc_hub_referral_register).
    /// Throws .invalid, .conflict (another user holds it), .busy (the hour's ten
    /// codes looked up spent), .io.
    public func registerReferral(code: String) throws(HabitError) {
        try referral(code, library.referralRegister)
    }

    /// Redeems a referral code for the connected user (hc_hub_referral_redeem).
    /// Throws .notFound (no such code), .conflict (own code, or another redeemed),
    /// .busy (the hour's ten codes looked up spent), .io.
    public func redeemReferral(code: String) throws(HabitError) {
        try referral(code, library.referralRedeem)
    }

    private func referral(_ code: String, _ call: HubLibrary.Referral) throws(HabitError) {
        let strings = CStrings()
        let text = try strings(code, "code")
        try withExtendedLifetime(strings) { () throws(HabitError) in
            try withHandle { hub throws(HabitError) in try library.check(call(hub, text), hub) }
        }
    }
}
