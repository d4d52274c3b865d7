import CHabitCore

extension Store {
    /// Registers a plugin in this store and gives its id (hc_plugin_add): a shared
    /// object is loaded and checked now and names itself (id must be nil); an
    /// executable takes id (nil: its file name). timeoutMs 0: the library's default.
    /// Throws .invalid (refused, with the path and the reason), .notFound (no runner),
    /// .conflict (id taken), .readOnly.
    @discardableResult
    public func addPlugin(kind: PluginKind, path: String, id: String? = nil, timeoutMs: Int64 = 0) throws(HabitError) -> String {
        let strings = CStrings()
        let cPath = try strings(path, "path"), cID = try strings(id, "id")
        return try withExtendedLifetime(strings) { () throws(HabitError) -> String in
            try withHandle { store throws(HabitError) in
                var added: UnsafeMutablePointer<CChar>?
                try check(hc_plugin_add(&added, store, kind.rawValue, cPath, cID, timeoutMs))
                return takeString(added) ?? ""
            }
        }
    }

    /// Removes a registered plugin (hc_plugin_remove). Throws .notFound, .readOnly.
    public func removePlugin(id: String) throws(HabitError) {
        try withHandle { store throws(HabitError) in try check(hc_plugin_remove(store, id)) }
    }

    /// The registered plugins as the library's JSON array of {"id", "kind", "path",
    /// "version", "timeout_ms", "config"} (hc_plugin_list_json).
    public func pluginsJSON() throws(HabitError) -> String {
        try withHandle { store throws(HabitError) in
            var json: UnsafeMutablePointer<CChar>?
            try check(hc_plugin_list_json(&json, store))
            return takeString(json) ?? "[]"
        }
    }

    /// Runs one verifier (closure or plugin) on a file and gives its verdict, recording
    /// nothing (hc_plugin_test; proofID 0). Throws .notFound (no such verifier or file), .invalid.
    public func testPlugin(id: String, path: String) throws(HabitError) -> ProofResult {
        try withHandle { store throws(HabitError) in
            var result = hc_proof_result()
            try check(hc_proof_result_init(&result, UInt32(MemoryLayout<hc_proof_result>.size)))
            try check(hc_plugin_test(&result, store, id, path))
            return ProofResult(result)
        }
    }

    /// Sets a registered plugin's settings in this store (a JSON object, at most 4 KiB),
    /// or clears them with nil (hc_plugin_configure). Throws .invalid, .notFound, .readOnly.
    public func configurePlugin(id: String, settingsJSON: String?) throws(HabitError) {
        let strings = CStrings()
        let settings = try strings(settingsJSON, "settingsJSON")
        try withExtendedLifetime(strings) { () throws(HabitError) in
            try withHandle { store throws(HabitError) in try check(hc_plugin_configure(store, id, settings)) }
        }
    }
}
