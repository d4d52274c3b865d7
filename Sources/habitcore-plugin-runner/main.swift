import HabitCore
// habitcore-plugin-runner: runs one shared-object verifier plugin in a process of
// its own, for a host that must outlive it (IsolatedVerifier). Installed beside
// libhabitcore.so. It speaks the executable-plugin protocol (RunnerProtocol):
//   habitcore-plugin-runner describe PLUGIN.so   -> {"id":..., "version":...} or {"error":...}
//   habitcore-plugin-runner verify < request      -> one verdict line (with "keep")
// A plugin that crashes takes this process with it; the host names the signal.
import HabitPlatform
import HabitPlugins

// The answer goes to our real stdout; whatever the plugin prints goes to stderr, the log.
let answerFD = dup(1)
_ = dup2(2, 1)

func answer(_ object: JSON) -> Never { answer(line: object.text) }

func answer(line text: String) -> Never {
    let line = Array((text + "\n").utf8)
    var sent = 0
    while sent < line.count {
        let count = line.withUnsafeBytes { write(answerFD, $0.baseAddress.map { $0 + sent }, $0.count - sent) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { exit(1) }
        sent += count
    }
    exit(0)
}

func readAll(_ fd: Int32, limit: Int) -> [UInt8]? {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        if count < 0 { return nil }
        if count == 0 { return bytes }
        bytes += buffer.prefix(count)
        if bytes.count > limit { return nil }
    }
}

func refuse(_ message: String) -> Never {
    answer(.object([("outcome", .string("error")), ("reason", .string("plugin_failed")), ("message", .string(message))]))
}

let arguments = CommandLine.arguments
switch arguments.count > 1 ? arguments[1] : "" {
case "describe" where arguments.count == 3:
    do throws(HabitError) {
        let plugin = try SharedObjectVerifier.load(path: arguments[2])
        plugin.release()
        answer(.object([("id", .string(plugin.id)), ("version", .string(plugin.version))]))
    } catch {
        answer(.object([("error", .string(error.message))]))
    }
case "verify" where arguments.count == 2:
    guard let input = readAll(0, limit: 256 << 20) else { refuse("cannot read the request") }
    let request: RunnerProtocol.Request
    do throws(HabitError) { request = try RunnerProtocol.parseRequest(String(decoding: input, as: UTF8.self)) } catch {
        refuse("bad request: \(error.message)")
    }
    let bytes: [UInt8]
    do throws(HabitError) { bytes = try EvidenceFile.read(request.evidence.path, maxBytes: 64 << 20) } catch { refuse(error.message) }
    var evidence = request.evidence
    evidence.bytes = bytes
    let plugin: SharedObjectVerifier
    do throws(HabitError) { plugin = try SharedObjectVerifier.load(path: request.pluginPath) } catch { refuse(error.message) }
    let session = VerifierSession(fingerprints: request.fingerprints)
    let verdict = plugin.verify(evidence, session: session)
    plugin.release()
    answer(line: RunnerProtocol.reply(verdict, kept: evidence.proofId == 0 ? [] : session.kept))
default:
    let usage = Array("usage: habitcore-plugin-runner describe PLUGIN.so | verify < REQUEST\n".utf8)
    _ = usage.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(2)
}
