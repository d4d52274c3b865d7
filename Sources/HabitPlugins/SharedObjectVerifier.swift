import CHabitCore
import HabitCore
import HabitPlatform

/// A plugin in a shared object exporting `hc_plugin_entry` (habitcore_plugin.h).
/// Loaded once per process with RTLD_NOW | RTLD_LOCAL and never unloaded; its ABI
/// version is read before any of its functions is called.
package final class SharedObjectVerifier: Verifier {
    package let id: String
    package let version: String
    package let path: String
    private let plugin: UnsafePointer<hc_plugin>
    private let state: UnsafeMutableRawPointer?
    /// One verify at a time per plugin, as the plugin header promises.
    private let lock = Lock()
    /// Set once destroy was called: nothing of the plugin's runs after it.
    private var released = false

    private static let cacheLock = Lock()
    nonisolated(unsafe) private static var loaded: [String: SharedObjectVerifier] = [:]

    private init(id: String, version: String, path: String, plugin: UnsafePointer<hc_plugin>, state: UnsafeMutableRawPointer?) {
        self.id = id
        self.version = version
        self.path = path
        self.plugin = plugin
        self.state = state
    }

    /// The plugin at path, loaded and checked (or the one already loaded from that file).
    package static func load(path: String) throws(HabitError) -> SharedObjectVerifier {
        guard platformLoadsSharedObjectFiles else {
            throw .invalid("plugin '\(path)': \(platformName) loads no shared object from a file: register a callback verifier")
        }
        let resolved = try PluginFile.resolve(path)
        return try cacheLock.locked { () -> Result<SharedObjectVerifier, HabitError> in
            if let known = loaded[resolved] { return .success(known) }
            do throws(HabitError) {
                let verifier = try open(resolved, shown: path)
                loaded[resolved] = verifier
                return .success(verifier)
            } catch {
                return .failure(error)
            }
        }.get()
    }

    private static func open(_ path: String, shown: String) throws(HabitError) -> SharedObjectVerifier {
        func refuse(_ why: String) -> HabitError { .invalid("plugin '\(shown)': \(why)") }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw refuse("not a regular file") }
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            throw refuse("not a loadable shared object (\(dlerror().map { String(cString: $0) } ?? "dlopen failed"))")
        }
        // Never dlclose: a plugin's code may still be referenced (and the host never unloads).
        guard let symbol = dlsym(handle, HC_PLUGIN_ENTRY_SYMBOL) else { throw refuse("it does not export \(HC_PLUGIN_ENTRY_SYMBOL)") }
        let abi = symbol.load(as: UInt32.self)
        guard abi == HC_PLUGIN_ABI_VERSION else {
            throw refuse(
                "plugin ABI version \(abi); this host speaks \(HC_PLUGIN_ABI_VERSION) (habitcore \(HC_VERSION_STRING)): rebuild it against this habitcore_plugin.h"
            )
        }
        let plugin = UnsafePointer(symbol.assumingMemoryBound(to: hc_plugin.self))
        guard let idPointer = plugin.pointee.id, let id = String(validatingCString: idPointer) else { throw refuse("its id is missing") }
        do { try ProofPolicy.validateVerifierId(id) } catch { throw refuse(error.message) }
        let version = plugin.pointee.version.flatMap { String(validatingCString: $0) } ?? ""
        guard plugin.pointee.verify != nil else { throw refuse("it has no verify function") }
        var state: UnsafeMutableRawPointer?
        if let initialise = plugin.pointee.`init` {
            // The plugin may keep the table: it lives as long as the process, like the plugin.
            let services = UnsafeMutablePointer<hc_host_services>.allocate(capacity: 1)
            services.initialize(to: hc_host_services())
            services.pointee.struct_size = UInt32(MemoryLayout<hc_host_services>.size)
            services.pointee.abi_version = HC_PLUGIN_ABI_VERSION
            services.pointee.log = hostLog
            services.pointee.fingerprints_read = hostFingerprintsRead
            services.pointee.fingerprint_keep = hostFingerprintKeep
            let status = initialise(services, &state)
            guard status == 0 else { throw refuse("its init returned \(status)") }
        }
        return SharedObjectVerifier(id: id, version: version, path: path, plugin: plugin, state: state)
    }

    package func verify(_ evidence: Evidence, session: VerifierSession) -> Verdict {
        lock.locked {
            guard !released else { return .error(id, version, "plugin_failed", "the plugin was destroyed") }
            guard let verify = plugin.pointee.verify else { return .error(id, version, "plugin_failed", "no verify function") }
            return CVerdict.run(id: id, version: version, evidence, session: session) { verify($0, $1, state) }
        }
    }

    /// Calls the plugin's destroy, once: for a host done with the plugin before its
    /// process ends (habitcore-plugin-runner, after its one verify). A host that keeps
    /// the plugin for its whole life never calls it.
    package func release() {
        lock.locked {
            guard !released else { return }
            released = true
            plugin.pointee.destroy?(state)
        }
    }
}

/// The log service plugins get: one line on stderr.
private let hostLog: @convention(c) (Int32, UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void = { level, message, _ in
    guard let message else { return }
    let name =
        switch level {
        case HC_LOG_DEBUG: "debug"
        case HC_LOG_INFO: "info"
        case HC_LOG_WARNING: "warning"
        case HC_LOG_ERROR: "error"
        default: "log"
        }
    let line = Array("habitcore plugin \(name): \(String(cString: message))\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

/// fingerprints_read: each fingerprint of a kind the plugin kept with the store's other proofs.
private let hostFingerprintsRead:
    @convention(c) (
        UnsafeMutableRawPointer?, UnsafePointer<CChar>?,
        (@convention(c) (Int64, UnsafePointer<UInt8>?, Int64, UnsafeMutableRawPointer?) -> Int32)?, UnsafeMutableRawPointer?,
        UnsafeMutableRawPointer?
    ) -> Int32 = { address, kind, visit, visitUserData, _ in
        guard let session = VerifierSession.live(at: address) else { return HC_E_MISUSE }
        guard let kind, let visit, let name = String(validatingCString: kind) else { return HC_E_INVALID }
        do throws(HabitError) {
            for fingerprint in try session.fingerprints(kind: name) {
                let stop = fingerprint.bytes.withUnsafeBufferPointer { visit(fingerprint.proofId, $0.baseAddress, Int64($0.count), visitUserData) }
                if stop != 0 { break }
            }
            return 0
        } catch {
            return error.code.rawValue
        }
    }

/// fingerprint_keep: a fingerprint to store with this proof.
private let hostFingerprintKeep:
    @convention(c) (
        UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<UInt8>?, Int64,
        UnsafeMutableRawPointer?
    ) -> Int32 = { address, kind, bytes, size, _ in
        guard let session = VerifierSession.live(at: address) else { return HC_E_MISUSE }
        guard let kind, let name = String(validatingCString: kind), let bytes, size > 0, size <= Int64(VerifierSession.maxFingerprintBytes) else {
            return HC_E_INVALID
        }
        do throws(HabitError) {
            try session.keep(kind: name, bytes: Array(UnsafeBufferPointer(start: bytes, count: Int(size))))
            return 0
        } catch {
            return error.code.rawValue
        }
    }
