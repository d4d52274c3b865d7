import Foundation
import HabitKit

/// hub: a PostgreSQL sync hub (include/habitcore_hub.h), through HabitKit's Hub. habitctl
/// does not link libpq: HabitKit loads libhabitcore_hub.so.1 from beside the
/// libhabitcore.so habitctl runs, on first use.
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
            let library = try load()
            let version = try kit { () throws(HabitError) in try Hub(conninfo: hubURL, library: library).initialise() }
            context.output.emit(["hub_schema_version": Int(version)]) { "hub schema at version \(version)" }
        case "user":
            guard args.positional(1) == "add" else { throw .usage("usage: habitctl hub user add NAME [--service] (password on stdin)") }
            let name = try args.require(2, "NAME")
            try args.finish(maxPositionals: 3)
            let input = FileHandle.standardInput.readDataToEndOfFile()
            let password = String(decoding: input, as: UTF8.self).trimmingCharacters(in: .newlines)
            guard !password.isEmpty else { throw .usage("give the new user's password on stdin") }
            let library = try load()
            try kit { () throws(HabitError) in
                try Hub(conninfo: hubURL, library: library).addUser(name: name, password: password, kind: service ? .service : .device)
            }
            context.output.emit(["user": name, "kind": service ? "service" : "device"]) { "added hub user \(name) (\(service ? "service" : "device"))" }
        case "sync":
            try args.finish(maxPositionals: 1)
            let library = try load()
            let store = try context.openStore()
            let summary = try kit { () throws(HabitError) in try Hub(conninfo: hubURL, library: library).sync(store.kit, actAs: actAs) }
            context.output.emit(["pushed": Int(summary.recordsPushed), "pulled": Int(summary.recordsPulled), "ops_new": Int(summary.opsNew)]) {
                "pushed \(summary.recordsPushed) records, pulled \(summary.recordsPulled) (\(summary.opsNew) new)"
            }
        case "status":
            try args.finish(maxPositionals: 1)
            let library = try load()
            let status = try kit { () throws(HabitError) in try Hub(conninfo: hubURL, library: library).status(actAs: actAs) }
            context.output.emit([
                "hub_schema_version": Int(status.schemaVersion), "records": Int(status.records), "replicas": Int(status.replicas),
                "referral_codes": Int(status.referralCodes), "referrals_made": Int(status.referralsMade),
                "referral_redeemed": status.referralRedeemed,
            ]) {
                "schema version \(status.schemaVersion); \(status.records) records from \(status.replicas) devices; "
                    + "\(status.referralCodes) referral codes, \(status.referralsMade) redeemed by others"
            }
        default:
            throw .usage("unknown hub subcommand '\(sub)'; see habitctl hub --help")
        }
    }

    /// The hub library from where libhabitcore.so is found (habitctl's RUNPATH: $ORIGIN,
    /// $ORIGIN/../lib): it ships beside it.
    private static func load() throws(CLIError) -> HubLibrary {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let name = HubLibrary.fileName
        let paths = [executable.path + "/" + name, executable.deletingLastPathComponent().path + "/lib/" + name]
        do {
            return try HubLibrary.load(searching: paths)
        } catch  where error.code == .io {
            throw CLIError(exitCode: 6, message: "cannot load the hub library \(name) (looked beside habitctl and in ../lib): install libhabitcore_hub")
        } catch {
            throw CLIError(error)
        }
    }
}
