/// A C string per thread: an export layer's last error message, handed out as a
/// pointer its caller borrows until that thread's next call. Each library that links
/// this holds its own instance, so each has its own message (a pthread key of its own).
package final class ThreadLocalMessage: Sendable {
    private let key: pthread_key_t

    package init() {
        var key = pthread_key_t()
        // The destructor frees a thread's message when the thread ends.
        pthread_key_create(&key) { free($0) }
        self.key = key
    }

    package func set(_ message: String) {
        let old = pthread_getspecific(key)
        pthread_setspecific(key, strdup(message))
        free(old)
    }

    package func clear() {
        guard let old = pthread_getspecific(key) else { return }
        pthread_setspecific(key, nil)
        free(old)
    }

    /// This thread's message, or nil when none is set.
    package var message: UnsafePointer<CChar>? {
        pthread_getspecific(key).map { UnsafePointer($0.assumingMemoryBound(to: CChar.self)) }
    }
}
