// libFuzzer target: habitcore's JSON reader (every document, catalogue and plugin line goes through it).
import HabitCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let value = try? JSON.parse(bytes) {
        // What is read writes back as text that reads the same.
        let again = try? JSON.parse(value.text)
        if again == nil { fatalError("JSON.text wrote what JSON.parse refuses: \(value.text.prefix(200))") }
    }
    return 0
}
