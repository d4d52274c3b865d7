import Foundation

/// What every command needs: how to answer, and where the store is.
struct Context {
    var output: Output
    var dbPath: String?

    /// --db, else $HABITCORE_DB, else the per-user default (its folder is created).
    func resolvedPath() throws(CLIError) -> String {
        if let dbPath { return dbPath }
        let env = ProcessInfo.processInfo.environment
        if let path = env["HABITCORE_DB"], !path.isEmpty { return path }
        let dataHome = env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (env["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        let folder = dataHome + "/habitcore"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CLIError(exitCode: 6, message: "cannot create \(folder): \(error.localizedDescription)")
        }
        return folder + "/habits.db"
    }

    func openStore() throws(CLIError) -> StoreRef {
        try StoreRef(path: resolvedPath())
    }
}
