// libFuzzer target: the awards catalogue reader (awards load), with habits found by name.
import HabitCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let rules = try? AwardCatalogue.decode(String(decoding: bytes, as: UTF8.self)) { (_: AwardCatalogue.HabitReference) throws(HabitError) -> Int64 in 1 }
    if let rules {
        // A catalogue that reads writes back as one that reads the same.
        let again = try? AwardCatalogue.decode(AwardCatalogue.encode(rules)) { (_: AwardCatalogue.HabitReference) throws(HabitError) -> Int64 in 1 }
        if again == nil { fatalError("AwardCatalogue.encode wrote what decode refuses") }
    }
    return 0
}
