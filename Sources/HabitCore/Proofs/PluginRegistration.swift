/// A plugin registered in a store: how it runs, where it is, its settings there.
package struct PluginRegistration: Equatable, Sendable {
    package enum Kind: Int32, Sendable {
        /// Run in habitcore-plugin-runner, a process of its own (the default).
        case sharedObject = 1
        case executable = 2
        /// Loaded into the host process: for trusted plugins such as proofcheck.
        case sharedObjectInProcess = 3
    }
    package var id: String
    package var kind: Kind
    package var path: String
    package var version: String
    package var timeoutMs: Int64
    /// Its settings in this store: a JSON object, or nil.
    package var config: String?

    package init(id: String, kind: Kind, path: String, version: String, timeoutMs: Int64, config: String? = nil) {
        self.id = id
        self.kind = kind
        self.path = path
        self.version = version
        self.timeoutMs = timeoutMs
        self.config = config
    }

    /// The kind as hc_plugin_list_json and habitctl name it.
    package var kindName: String {
        switch kind {
        case .sharedObject: "shared_object"
        case .executable: "executable"
        case .sharedObjectInProcess: "shared_object_in_process"
        }
    }

    /// The registrations as the JSON array hc_plugin_list_json documents:
    /// {"id","kind","path","version","timeout_ms","config"} each.
    package static func listJSON(_ plugins: [PluginRegistration]) -> String {
        JSON.array(
            plugins.map { plugin in
                .object([
                    ("id", .string(plugin.id)), ("kind", .string(plugin.kindName)), ("path", .string(plugin.path)),
                    ("version", .string(plugin.version)), ("timeout_ms", .int(plugin.timeoutMs)),
                    ("config", (plugin.config.flatMap { try? JSON.parse($0) }) ?? .null),
                ])
            }
        ).text
    }
}
