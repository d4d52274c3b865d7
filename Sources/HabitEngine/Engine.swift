import HabitCore
import HabitPlatform
import HabitPlugins
import HabitStore

/// The use cases of habitcore: each call validates with the domain, reads or
/// writes through the store, and answers with domain values. Not thread-safe:
/// the ABI layer serialises calls on one engine.
package typealias StoreOptions = Store.Options

package final class Engine {
    package let store: Store
    /// The clock, in UTC milliseconds; tests may replace it.
    package var now: () -> Int64 = Engine.systemNowMs
    /// How many received ops this store keeps waiting (Changeset.maxWaiting); tests may lower it.
    package var maxWaitingOps = Changeset.maxWaiting
    /// What this handle last read, each cache's type living with its capability.
    /// Dropped when this engine changes what one copies and when another connection
    /// commits (PRAGMA data_version moves). Inside an explicit transaction nobody
    /// else can write, so no check is needed there.
    var caches = Caches()
    private var seenDataVersion: Int64 = -1
    /// Off, the today snapshot judges every habit on its whole history (the reference
    /// its windowed reads are tested against).
    package var todaySnapshotReadsWindows = true
    /// Verifier callbacks registered on this handle, by id.
    var callbackVerifiers: [String: any Verifier] = [:]

    /// The schema version of the open store file.
    package var schemaVersion: Int32 {
        get throws(HabitError) { try store.schemaVersion }
    }

    package init(path: String, options: Store.Options) throws(HabitError) {
        store = try Store(path: path, options: options)
        store.syncNow = { [unowned self] in self.now() }
        // Best effort: a busy store leaves them for the next open.
        if !options.readOnly { try? recoverInterruptedProofs() }
    }

    /// Closes the file and drops the handle's callback verifiers now (their release
    /// functions run here), not whenever the last reference to the handle goes.
    package func close() {
        store.close()
        callbackVerifiers.removeAll()
    }

    func revalidateCaches(insideTransaction: Bool = false) throws(HabitError) {
        guard insideTransaction || !store.inExplicitTransaction else { return }
        let version = try store.dataVersion()
        if version != seenDataVersion {
            try caches.histories.revalidate(store)
            // Another connection's sync may have moved this store's own branch (SyncFork).
            store.forgetReplicaId()
            caches.dropAllButHistories()
            seenDataVersion = version
        }
    }

    /// Drops every cache: after a rollback, a sync apply or an import.
    func dropCaches() {
        store.forgetReplicaId()
        caches.dropAllButHistories()
        caches.histories.drop()
    }

    /// Each capability's copy of what it last read (the types live in their
    /// capability's file); the shield snapshot checks its own change stamp.
    struct Caches {
        var calendar = CalendarCache()
        var habits = HabitCache()
        var credits = CreditCache()
        var reminders = ReminderCache()
        var shields = ShieldCache()
        var histories = HistoryCache()

        /// The histories decide for themselves whether another connection's
        /// commit reached them (HistoryCache.revalidate).
        mutating func dropAllButHistories() {
            calendar.drop()
            habits.drop()
            credits.drop()
            reminders.drop()
        }
    }

    /// Off, progress calls fold every history from the ledger as it stands (no
    /// cache): the reference the cached path is tested against.
    package var cachesHistories: Bool {
        get { caches.histories.enabled }
        set { caches.histories.enabled = newValue; caches.histories.drop() }
    }

    /// The folded days this handle keeps for a habit, if any (for tests that
    /// compare them with a fresh fold).
    package func cachedDays(habitId: Int64) -> [DayState]? { caches.histories.byHabit[habitId]?.days }

    // MARK: Transactions

    package func begin() throws(HabitError) {
        try store.begin()
        // What others committed before we took the write lock must be seen.
        try revalidateCaches(insideTransaction: true)
    }

    package func commit() throws(HabitError) { try store.commit() }

    package func rollback() throws(HabitError) {
        defer { dropCaches() }  // what the transaction wrote is gone
        try store.rollback()
    }

    package static func systemNowMs() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }

}
