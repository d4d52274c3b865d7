// libFuzzer target: what plugin processes print and read: an executable plugin's verdict
// line, habitcore-plugin-runner's reply (with fingerprints) and its request.
import HabitCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let line = String(decoding: bytes.prefix { $0 != 10 }, as: UTF8.self)
    _ = try? Evidence.verdict(fromLine: line, verifierId: "fuzz", version: "1", durationUs: 0)
    _ = try? RunnerProtocol.parseReply(line, verifierId: "fuzz", version: "1", durationUs: 0)
    _ = try? RunnerProtocol.parseRequest(String(decoding: bytes, as: UTF8.self))
    return 0
}
