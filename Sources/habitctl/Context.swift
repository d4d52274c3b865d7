import Foundation
import HabitKit

/// What every command needs: how to answer, and where the store is.
struct Context {
    var output: Output
    var dbPath: String?

    /// --db, else $HABITCORE_DB, else the per-user default (its folder is created).
    func resolvedPath() throws(CLIError) -> String {
        if let dbPath { return dbPath }
        let env = ProcessInfo.processInfo.environment
        if let path = env["HABITCORE_DB"], !path.isEmpty { return path }
        let dataHome =
            env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (env["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        let folder = dataHome + "/habitcore"
        do {
            try FileManager.default.createDirectory(atPath: dataHome, withIntermediateDirectories: true)
            // The store's own folder is the user's alone (its -wal and -shm live there too).
            if mkdir(folder, 0o700) != 0 && errno != EEXIST {
                throw CLIError(exitCode: 6, message: "cannot create \(folder): \(String(cString: strerror(errno)))")
            }
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError(exitCode: 6, message: "cannot create \(folder): \(error.localizedDescription)")
        }
        return folder + "/habits.db"
    }

    /// The store, opened read-only for commands that only read: they work on a store
    /// the user may not write (a read-only folder, a 0444 file) and leave nothing behind.
    func openStore(readOnly: Bool = false) throws(CLIError) -> StoreRef {
        try StoreRef(path: resolvedPath(), options: readOnly ? .readOnly : [])
    }

    /// Whether this user may write the store and its folder (where SQLite keeps -wal and -shm).
    func canWrite() -> Bool {
        guard let path = try? resolvedPath() else { return false }
        let folder = (path as NSString).deletingLastPathComponent
        return access(path, W_OK) == 0 && access(folder.isEmpty ? "." : folder, W_OK) == 0
    }
}
