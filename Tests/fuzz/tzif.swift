// libFuzzer target: the TZif reader (and its POSIX TZ footer), then the zone asked about
// instants across the years as stores ask it.
import HabitCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let zone = try? ZoneRules.parseTZif(name: "Fuzz/Zone", bytes: bytes) else { return 0 }
    let clock = DayClock(zone: zone, dayStartMinutes: 180)
    for seconds: Int64 in [-62_135_596_800, -1, 0, 1_700_000_000, 4_102_444_800, 253_402_300_799] {
        _ = zone.utcOffset(atUTC: seconds)
        _ = try? clock.localDay(utcMs: seconds * 1000)
        _ = try? clock.minuteOfDay(utcMs: seconds * 1000)
    }
    return 0
}
