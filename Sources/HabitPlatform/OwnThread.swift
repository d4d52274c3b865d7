/// Runs body on a thread of its own (detached), for work that blocks (a wait on a file,
/// a lock held by another process) and must not hold one of Swift concurrency's few
/// cooperative threads. Returns false, body not run, when no thread could be made.
package func runOnOwnThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    #if canImport(Darwin)
        var thread: pthread_t?
        let made = pthread_create(
            &thread, nil,
            { raw in
                Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
                return nil
            }, box)
        if made == 0, let thread { pthread_detach(thread) }
    #else
        var thread = pthread_t()
        let made = pthread_create(
            &thread, nil,
            { raw in
                guard let raw else { return nil }
                Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
                return nil
            }, box)
        if made == 0 { pthread_detach(thread) }
    #endif
    if made != 0 { Unmanaged<Box>.fromOpaque(box).release() }
    return made == 0
}
