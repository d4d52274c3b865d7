// The ShippedLibrary plugin's command: libhabitcore.so.1 -> libhabitcore.so in the
// build folder, and a Swift file for habitctl recording that it was made after it.
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: shipped-library-link BUILD_FOLDER GENERATED_SWIFT\n".utf8))
    exit(2)
}
let link = arguments[1] + "/libhabitcore.so.1"
let files = FileManager.default
if (try? files.destinationOfSymbolicLink(atPath: link)) != "libhabitcore.so" {
    try? files.removeItem(atPath: link)
    try files.createSymbolicLink(atPath: link, withDestinationPath: "libhabitcore.so")
}
let text = "// Generated: habitctl links libhabitcore.so.1 (the SONAME), built before it.\n"
try text.write(toFile: arguments[2], atomically: true, encoding: .utf8)
