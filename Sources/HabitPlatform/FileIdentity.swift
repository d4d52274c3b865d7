/// Which file a path names now, and its version: device, inode, size and modification
/// time. Two equal identities are, for a cache, the same bytes (a file replaced by a
/// rename, as package managers install tzdata, gets a new inode). Darwin names the
/// modification time st_mtimespec, Linux st_mtim.
package struct FileIdentity: Equatable, Sendable {
    private let device: UInt64
    private let inode: UInt64
    private let size: Int64
    private let modifiedSeconds: Int64
    private let modifiedNanoseconds: Int64

    /// The identity of the file at path, or nil when it cannot be stat'ed.
    package init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
        size = Int64(truncatingIfNeeded: info.st_size)
        #if canImport(Darwin)
            modifiedSeconds = Int64(truncatingIfNeeded: info.st_mtimespec.tv_sec)
            modifiedNanoseconds = Int64(truncatingIfNeeded: info.st_mtimespec.tv_nsec)
        #else
            modifiedSeconds = Int64(truncatingIfNeeded: info.st_mtim.tv_sec)
            modifiedNanoseconds = Int64(truncatingIfNeeded: info.st_mtim.tv_nsec)
        #endif
    }
}
