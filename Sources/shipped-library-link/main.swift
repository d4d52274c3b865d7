// The ShippedLibrary plugin's command: libhabitcore.so.1 -> libhabitcore.so (and
// libhabitcore_hub.so.1 -> libhabitcore_hub.so) in the build folder, and a Swift
// file for habitctl recording that it was made after it.
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: shipped-library-link BUILD_FOLDER GENERATED_SWIFT\n".utf8))
    exit(2)
}
let files = FileManager.default
// The hub library's SONAME link too (made before the hub library itself: a link
// that resolves once it is built), for programs linked with -lhabitcore_hub.
for library in ["libhabitcore.so", "libhabitcore_hub.so"] {
    let link = arguments[1] + "/" + library + ".1"
    if (try? files.destinationOfSymbolicLink(atPath: link)) != library {
        try? files.removeItem(atPath: link)
        try files.createSymbolicLink(atPath: link, withDestinationPath: library)
    }
}
let text = "// Generated: habitctl links libhabitcore.so.1 (the SONAME), built before it.\n"
try text.write(toFile: arguments[2], atomically: true, encoding: .utf8)
