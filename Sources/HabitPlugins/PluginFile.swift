import HabitCore
import HabitFiles
import HabitPlatform

/// Where a plugin really is: registrations and the load cache both key on it.
package enum PluginFile {
    /// The plugin file `path` names: a path as given, or, for a bare name with no
    /// such file here ("proofcheck"), the plugin installed with this library:
    /// libhabitcore_NAME.so in habitcore/plugins/ beside the library, or beside it
    /// (the build folder). Resolved to its real path.
    package static func resolve(_ path: String) throws(HabitError) -> String {
        if let real = realPath(path) { return real }
        if !path.isEmpty, !path.contains("/"), let folder = libraryFolder {
            for candidate in ["\(folder)/habitcore/plugins/libhabitcore_\(path).so", "\(folder)/libhabitcore_\(path).so"] {
                if let real = realPath(candidate) { return real }
            }
        }
        throw .notFound("plugin '\(path)': no such file")
    }

    /// The folder of the file this code was loaded from (libhabitcore.so.1; or a test
    /// binary that links the engine): what the platform says of #dsohandle, else the
    /// mapping in /proc/self/maps that holds it.
    package static var libraryFolder: String? {
        if let path = loadedImagePath(containing: #dsohandle) {
            guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/") else { return nil }
            return String(path[..<slash])
        }
        let address = UInt(bitPattern: #dsohandle)
        guard case .success(let maps) = WholeFile.read("/proc/self/maps", maxBytes: 16 << 20) else { return nil }
        for line in maps.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 5, omittingEmptySubsequences: true)
            let range = fields.first?.split(separator: UInt8(ascii: "-")) ?? []
            guard fields.count == 6, range.count == 2,
                let start = UInt(String(decoding: range[0], as: UTF8.self), radix: 16),
                let end = UInt(String(decoding: range[1], as: UTF8.self), radix: 16), start <= address, address < end
            else { continue }
            let path = String(decoding: fields[5].drop { $0 == UInt8(ascii: " ") }, as: UTF8.self)
            guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/") else { return nil }
            return String(path[..<slash])
        }
        return nil
    }

    private static func realPath(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }
}
