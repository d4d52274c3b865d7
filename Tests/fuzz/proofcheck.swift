// libFuzzer target: proofcheck's JPEG/PNG container walk and its EXIF reader, on the
// bytes of any photo a person submits.
import ProofcheckCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let container = try? ImageContainer.read(bytes), let exif = container.exif {
        if let facts = try? ExifReader.read(exif) { _ = CaptureTime(facts, storeOffsetSeconds: 3600) }
    }
    // The EXIF reader alone too, on TIFF bytes as they come.
    _ = try? ExifReader.read(bytes[...])
    return 0
}
