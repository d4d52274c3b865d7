import HabitPlatform
import CHabitCore
import Foundation

/// hub: a PostgreSQL sync hub (include/habitcore_hub.h). habitctl does not link libpq:
/// it loads libhabitcore_hub.so.1 from beside the libhabitcore.so it runs, on first use.
enum HubCommands {
    static func run(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["hub", "act-as"])
        let hubURL = args.option("hub") ?? ProcessInfo.processInfo.environment["HABITCORE_HUB"]
        let actAs = args.option("act-as")
        let service = args.flag("service")
        let sub = args.positional(0) ?? "status"
        guard let hubURL, !hubURL.isEmpty else { throw .usage("no hub: give --hub URL (a libpq connection string) or set HABITCORE_HUB") }
        switch sub {
        case "init":
            try args.finish(maxPositionals: 1)
            let library = try HubLibrary.load()
            let hub = try library.open(hubURL)
            defer { _ = library.close(hub) }
            var version: Int32 = 0
            try library.check(library.initialise(&version, hub), hub)
            context.output.emit(["schema_version": Int(version)]) { "hub schema at version \(version)" }
        case "user":
            guard args.positional(1) == "add" else { throw .usage("usage: habitctl hub user add NAME [--service] (password on stdin)") }
            let name = try args.require(2, "NAME")
            try args.finish(maxPositionals: 3)
            let input = FileHandle.standardInput.readDataToEndOfFile()
            let password = String(decoding: input, as: UTF8.self).trimmingCharacters(in: .newlines)
            guard !password.isEmpty else { throw .usage("give the new user's password on stdin") }
            let library = try HubLibrary.load()
            let hub = try library.open(hubURL)
            defer { _ = library.close(hub) }
            try library.check(library.userAdd(hub, name, password, service ? HC_HUB_USER_SERVICE : HC_HUB_USER_DEVICE), hub)
            context.output.emit(["user": name, "kind": service ? "service" : "device"]) { "added hub user \(name) (\(service ? "service" : "device"))" }
        case "sync":
            try args.finish(maxPositionals: 1)
            let library = try HubLibrary.load()
            let store = try context.openStore()
            let hub = try library.open(hubURL)
            defer { _ = library.close(hub) }
            var summary = Library.defaults(library.syncSummaryInit)
            var options = Library.defaults(library.syncOptionsInit)
            let status = withOptionalCString(actAs) { name in
                options.act_as = name
                return library.sync(&summary, hub, store.handle, &options)
            }
            try library.check(status, hub)
            context.output.emit(["pushed": Int(summary.records_pushed), "pulled": Int(summary.records_pulled), "ops_new": Int(summary.ops_new)]) {
                "pushed \(summary.records_pushed) records, pulled \(summary.records_pulled) (\(summary.ops_new) new)"
            }
        case "status":
            try args.finish(maxPositionals: 1)
            let library = try HubLibrary.load()
            let hub = try library.open(hubURL)
            defer { _ = library.close(hub) }
            var status = Library.defaults(library.statusInit)
            try library.check(withOptionalCString(actAs) { library.statusGet(&status, hub, $0) }, hub)
            context.output.emit([
                "schema_version": Int(status.schema_version), "records": Int(status.records), "replicas": Int(status.replicas),
                "referral_codes": Int(status.referral_codes), "referrals_made": Int(status.referrals_made),
                "referral_redeemed": status.referral_redeemed != 0,
            ]) {
                "schema version \(status.schema_version); \(status.records) records from \(status.replicas) devices; "
                    + "\(status.referral_codes) referral codes, \(status.referrals_made) redeemed by others"
            }
        default:
            throw .usage("unknown hub subcommand '\(sub)'; see habitctl hub --help")
        }
    }

    private static func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
        guard let text else { return body(nil) }
        return text.withCString { body($0) }
    }
}

/// libhabitcore_hub.so.1's calls, resolved with dlopen/dlsym: the types are the
/// header's (include/habitcore_hub.h), written out because habitctl must not link it.
struct HubLibrary {
    typealias Open = @convention(c) (UnsafeMutablePointer<OpaquePointer?>?, UnsafePointer<CChar>?) -> Int32
    typealias Close = @convention(c) (OpaquePointer?) -> Int32
    typealias Message = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    typealias LastMessage = @convention(c) () -> UnsafePointer<CChar>?
    typealias Initialise = @convention(c) (UnsafeMutablePointer<Int32>?, OpaquePointer?) -> Int32
    typealias UserAdd = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32) -> Int32
    typealias Sync = @convention(c) (UnsafeMutablePointer<hc_hub_sync_summary>?, OpaquePointer?, OpaquePointer?,
                                     UnsafePointer<hc_hub_sync_options>?) -> Int32
    typealias StatusGet = @convention(c) (UnsafeMutablePointer<hc_hub_status>?, OpaquePointer?, UnsafePointer<CChar>?) -> Int32
    /// hc_hub_<struct>_init: the header's defaults, from the library that states them.
    typealias OptionsInit = @convention(c) (UnsafeMutablePointer<hc_hub_sync_options>?, UInt32) -> Int32
    typealias SummaryInit = @convention(c) (UnsafeMutablePointer<hc_hub_sync_summary>?, UInt32) -> Int32
    typealias StatusInit = @convention(c) (UnsafeMutablePointer<hc_hub_status>?, UInt32) -> Int32

    let openCall: Open
    let close: Close
    let errmsg: Message
    let lastMessage: LastMessage
    let initialise: Initialise
    let userAdd: UserAdd
    let sync: Sync
    let statusGet: StatusGet
    let syncOptionsInit: OptionsInit
    let syncSummaryInit: SummaryInit
    let statusInit: StatusInit

    /// Where libhabitcore.so is found (habitctl's RUNPATH: $ORIGIN, $ORIGIN/../lib):
    /// the hub library ships beside it.
    private static func candidates(_ name: String) -> [String] {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        return [executable.path + "/" + name, executable.deletingLastPathComponent().path + "/lib/" + name]
    }

    static func load() throws(CLIError) -> HubLibrary {
        let name = "libhabitcore_hub.so.1"
        let paths = candidates(name)
        guard let handle = paths.lazy.compactMap({ dlopen($0, RTLD_NOW | RTLD_LOCAL) }).first else {
            throw CLIError(exitCode: 6, message: "cannot load the hub library \(name) (looked beside habitctl and in ../lib): install libhabitcore_hub")
        }
        func symbol<T>(_ name: String, _ type: T.Type) throws(CLIError) -> T {
            guard let pointer = dlsym(handle, name) else { throw CLIError(exitCode: 6, message: "the hub library lacks \(name)") }
            return unsafeBitCast(pointer, to: type)
        }
        return HubLibrary(
            openCall: try symbol("hc_hub_open", Open.self), close: try symbol("hc_hub_close", Close.self),
            errmsg: try symbol("hc_hub_errmsg", Message.self), lastMessage: try symbol("hc_hub_last_error_message", LastMessage.self),
            initialise: try symbol("hc_hub_init", Initialise.self), userAdd: try symbol("hc_hub_user_add", UserAdd.self),
            sync: try symbol("hc_hub_sync", Sync.self), statusGet: try symbol("hc_hub_status_get", StatusGet.self),
            syncOptionsInit: try symbol("hc_hub_sync_options_init", OptionsInit.self),
            syncSummaryInit: try symbol("hc_hub_sync_summary_init", SummaryInit.self),
            statusInit: try symbol("hc_hub_status_init", StatusInit.self))
    }

    func open(_ conninfo: String) throws(CLIError) -> OpaquePointer {
        var hub: OpaquePointer?
        let status = openCall(&hub, conninfo)
        guard status == HC_OK, let hub else {
            throw CLIError.fromStatus(status, lastMessage().map { String(cString: $0) } ?? "could not connect to the hub")
        }
        return hub
    }

    func check(_ status: Int32, _ hub: OpaquePointer) throws(CLIError) {
        guard status != HC_OK else { return }
        let message = errmsg(hub).map { String(cString: $0) } ?? ""
        throw CLIError.fromStatus(status, message.isEmpty ? (lastMessage().map { String(cString: $0) } ?? "") : message)
    }
}
