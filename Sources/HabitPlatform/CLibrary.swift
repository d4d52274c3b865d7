// The platform's C library, decided here and nowhere else: every other file imports
// HabitPlatform. Built and tested on Linux (Glibc); Musl (static Linux SDK), Darwin
// (macOS, iOS) and Android are written for but not built here (docs/PLATFORMS.md).
#if canImport(Glibc)
    @_exported import Glibc
#elseif canImport(Musl)
    @_exported import Musl
#elseif canImport(Darwin)
    @_exported import Darwin
#elseif canImport(Android)
    @_exported import Android
#else
    #error("habitcore needs a POSIX C library (Glibc, Musl, Darwin or Android)")
#endif

// read(2), write(2) and close(2) under names that types with methods called read,
// write or close can reach without naming the C module (Glibc.close).
@inline(__always) package func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

@inline(__always) package func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}

@inline(__always) @discardableResult package func posixClose(_ fd: Int32) -> Int32 {
    close(fd)
}
