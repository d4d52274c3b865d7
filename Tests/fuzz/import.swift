// libFuzzer target: store import, the two habitcore layouts and Loop Habit Tracker's CSVs
// (the input split at its first NUL byte into Habits.csv and Checkmarks.csv).
import HabitCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let text = String(decoding: bytes, as: UTF8.self)
    let layout = StoreDocument.detectLayout(text)
    _ = try? StoreDocument.decode(text, layout: layout)
    _ = try? StoreDocument.decode(text, layout: layout == .json ? .jsonLines : .json)
    let parts = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    if parts.count == 2 {
        _ = try? LoopCSV.plan(
            habitsCSV: String(decoding: parts[0], as: UTF8.self), checkmarksCSV: String(decoding: parts[1], as: UTF8.self),
            today: 20_000, nowMs: 1_700_000_000_000)
    }
    return 0
}
