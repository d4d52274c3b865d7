import HabitCore
import HabitPlatform
import HabitPlugins
import HabitStore

/// Verifiers and plugins: callbacks on this handle, plugins registered in the store,
/// and a verifier's test run on a file.
extension Engine {
    package func registerVerifier(_ verifier: (any Verifier)?, id: String) throws(HabitError) {
        try ProofPolicy.validateVerifierId(id)
        callbackVerifiers[id] = verifier
    }

    /// A callback on this handle, else a plugin registered in the store, with its settings.
    func verifier(id: String) throws(HabitError) -> (verifier: any Verifier, config: String?) {
        if let callback = callbackVerifiers[id] { return (callback, nil) }
        guard let row = try store.plugins().first(where: { $0.id == id }) else { throw .notFound("no verifier '\(id)' is registered") }
        switch row.kind {
        case .executable: return (ExecutableVerifier(id: row.id, path: row.path, timeoutMs: row.timeoutMs), row.config)
        case .sharedObject:
            let timeout = row.timeoutMs == 0 ? Self.defaultPluginTimeoutMs : row.timeoutMs
            return (IsolatedVerifier(id: row.id, version: row.version, path: row.path, timeoutMs: timeout), row.config)
        case .sharedObjectInProcess:
            let loaded = try SharedObjectVerifier.load(path: row.path)
            guard loaded.id == row.id else { throw .invalid("plugin '\(row.path)' now calls itself '\(loaded.id)', registered as '\(row.id)'") }
            return (loaded, row.config)
        }
    }

    package func addPlugin(kind: PluginRegistration.Kind, path: String, id: String?, timeoutMs: Int64) throws(HabitError) -> String {
        let resolved = try PluginFile.resolve(path)
        let row: PluginRegistration
        switch kind {
        case .sharedObject:
            guard id == nil else { throw .invalid("a shared object names itself: pass no id") }
            let timeout = try Self.pluginTimeout(timeoutMs)
            let described = try IsolatedVerifier.describe(path: resolved, timeoutMs: timeout)
            try ProofPolicy.validateVerifierId(described.id)
            row = PluginRegistration(id: described.id, kind: kind, path: resolved, version: described.version, timeoutMs: timeout)
        case .sharedObjectInProcess:
            guard id == nil else { throw .invalid("a shared object names itself: pass no id") }
            guard timeoutMs == 0 else { throw .invalid("a plugin loaded in-process has no timeout: it runs on the caller's thread") }
            let loaded = try SharedObjectVerifier.load(path: resolved)
            row = PluginRegistration(id: loaded.id, kind: kind, path: resolved, version: loaded.version, timeoutMs: 0)
        case .executable:
            var info = stat()
            guard stat(resolved, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_mode & 0o111 != 0 else {
                throw .invalid("plugin '\(path)': not an executable file")
            }
            let name = id ?? String(resolved.split(separator: "/").last?.split(separator: ".").first ?? "plugin").lowercased()
            try ProofPolicy.validateVerifierId(name)
            row = PluginRegistration(id: name, kind: kind, path: resolved, version: "exec", timeoutMs: try Self.pluginTimeout(timeoutMs))
        }
        let at = now()
        try store.atomically { () throws(HabitError) in try store.insertPlugin(row, addedAtMs: at) }
        return row.id
    }

    /// A plugin process's time limit: 0 asks for the default.
    private static func pluginTimeout(_ timeoutMs: Int64) throws(HabitError) -> Int64 {
        let timeout = timeoutMs == 0 ? defaultPluginTimeoutMs : timeoutMs
        guard (1...600_000).contains(timeout) else { throw .invalid("timeout_ms \(timeoutMs) is outside 1...600000") }
        return timeout
    }

    /// Sets (or with nil clears) a plugin's settings in this store: a JSON object of
    /// at most 4 KiB, handed to the plugin with each piece of evidence.
    package func configurePlugin(id: String, config: String?) throws(HabitError) {
        if let config { try Self.requireSmallObject(config, "plugin settings") }
        guard try store.atomically({ () throws(HabitError) in try store.setPluginConfig(id: id, config: config) }) else {
            throw .notFound("no plugin '\(id.prefix(64))' is registered")
        }
    }

    package func removePlugin(id: String) throws(HabitError) {
        guard try store.atomically({ () throws(HabitError) in try store.deletePlugin(id: id) }) else {
            throw .notFound("no plugin '\(id.prefix(64))' is registered")
        }
    }

    package func plugins() throws(HabitError) -> [PluginRegistration] {
        try store.plugins()
    }

    /// One verifier's verdict on a file, recorded nowhere.
    /// It sees the store's fingerprints but keeps none.
    package func testVerifier(id: String, path: String) throws(HabitError) -> Verdict {
        let found = try verifier(id: id)  // an unknown id fails the call rather than becoming a verdict
        let bytes = try evidenceBytes(path: path, bytes: nil)
        let received = now()
        let clock = try clock()
        var evidence = Evidence(
            bytes: bytes, path: path, mediaType: ProofText.guessMediaType(bytes), sha256: SHA256.hex(bytes), takenAtMs: nil,
            receivedAtMs: received, habitId: 0, habitName: "", metadataJSON: nil)
        evidence.day = try clock.localDay(utcMs: received)
        evidence.utcOffsetSeconds = try clock.utcOffsetSeconds(utcMs: received)
        evidence.dayStartMinutes = clock.dayStartMinutes
        return run(found, id: id, evidence: evidence).verdict
    }
}
