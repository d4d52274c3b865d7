/// A plain pthread mutex. The library's own state is guarded by these; values
/// behind them are not Sendable, which is why they are not Synchronization.Mutex.
package final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func locked<T>(_ body: () throws(Never) -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}

/// A pthread mutex that knows which thread holds it (PTHREAD_MUTEX_ERRORCHECK). A
/// thread that asks for it while already holding it (a callback run under the lock
/// that calls back in) is refused at once instead of waiting for itself forever;
/// other threads wait, as with Lock.
package final class ReentryRefusingLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// body's result under the lock, or nil without running body when this thread
    /// already holds it (EDEADLK, the only failure an error-checking mutex's lock has).
    package func lockedUnlessHeld<T>(_ body: () throws(Never) -> T) -> T? {
        guard pthread_mutex_lock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}
