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
    if (try? files.destinationOfSymbolicLink(atPath: link)) == library { continue }
    // Every target that uses the plugin runs this command, and the build runs them at
    // once: the link is made under a name of this process's own and renamed over the
    // old one, which is atomic, so neither run sees a half-made link or fails on the
    // other's. (POSIX calls through Foundation: only HabitPlatform imports the C library.)
    let staged = link + ".\(ProcessInfo.processInfo.processIdentifier)"
    unlink(staged)
    guard symlink(library, staged) == 0, rename(staged, link) == 0 else {
        let reason = String(cString: strerror(errno))
        unlink(staged)
        FileHandle.standardError.write(Data("shipped-library-link: cannot link \(link): \(reason)\n".utf8))
        exit(1)
    }
}
let text = "// Generated: habitctl links libhabitcore.so.1 (the SONAME), built before it.\n"
try text.write(toFile: arguments[2], atomically: true, encoding: .utf8)
