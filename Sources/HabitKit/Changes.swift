import CHabitCore
import HabitPlatform

/// What one write of the store changed (hc_change): an area, a habit, the days it
/// can change the judgement of, and the store revision it came in at.
public struct Change: Sendable, Hashable {
    /// The store revision it came in at: keep the last one handled as the cursor.
    public var revision: Int64
    /// What it touched.
    public var area: ChangeArea
    /// Its habit; nil when the change is not one habit's (a store setting, a vacation of every habit).
    public var habitID: HabitID?
    /// The first day it reaches; nil: no bound (HC_CHANGE_FIRST_DAY, a change that names no day).
    public var firstDay: Day?
    /// The last day it reaches; nil: no bound (HC_CHANGE_LAST_DAY, a setting from a day on).
    public var lastDay: Day?

    /// Whether it reaches a day.
    public func reaches(_ day: Day) -> Bool {
        (firstDay.map { $0 <= day } ?? true) && (lastDay.map { day <= $0 } ?? true)
    }

    init(_ c: hc_change) {
        revision = c.revision
        area = ChangeArea(rawValue: c.area)
        habitID = HabitID(nonZero: c.habit_id)
        firstDay = c.first_day <= HC_CHANGE_FIRST_DAY ? nil : Day(rawValue: c.first_day)
        lastDay = c.last_day >= HC_CHANGE_LAST_DAY ? nil : Day(rawValue: c.last_day)
    }
}

extension Store {
    /// The store revision: it grows with every commit of a logged write by any process
    /// and never goes back; reading it writes nothing (hc_store_revision).
    public func revision() throws(HabitError) -> Int64 {
        try withHandle { store throws(HabitError) in
            var revision: Int64 = 0
            try check(hc_store_revision(&revision, store))
            return revision
        }
    }

    /// The changes of the writes logged after a revision, oldest first, from at most
    /// limit (1...10000) writes; merged: one change per area and habit for each run of
    /// touching days (hc_change_list_read). Throws .invalid.
    public func changes(after revision: Int64 = 0, limit: Int64 = 1000, merged: Bool = false) throws(HabitError) -> [Change] {
        try withHandle { store throws(HabitError) in
            var list: OpaquePointer?
            try check(hc_change_list_read(&list, store, revision, limit, merged ? HC_CHANGES_MERGED : 0))
            defer { hc_change_list_free(list) }
            return try elements(of: list, { hc_change_list_count($0, $1) }, { hc_change_list_get($0, $1, $2) }, Change.init)
        }
    }
}

extension Store {
    /// Blocks the calling thread until the store revision passes `revision` (a commit
    /// by any process), or timeoutMs passes; gives the revision then. Idle, it costs no
    /// CPU on Linux (an inotify watch on the store file and its -wal wakes it); where
    /// there is no inotify it reads the revision every 100 ms.
    public func waitForChange(after revision: Int64, timeoutMs: Int32 = 1000) throws(HabitError) -> Int64 {
        let watch = commitWatch()
        let deadline = MonotonicClock.nanoseconds() &+ Int64(max(timeoutMs, 0)) * 1_000_000
        while true {
            let now = try self.revision()
            if now > revision { return now }
            let left = (deadline &- MonotonicClock.nanoseconds()) / 1_000_000
            guard left > 0 else { return now }
            _ = watch.wait(timeoutMs: watch.wakesOnWrite ? Int32(clamping: left) : Int32(clamping: min(left, 100)))
        }
    }

    /// The changes after `revision` (nil: from the revision now), as they are committed
    /// by any process, each once and in order; the waits and reads run on a thread of
    /// their own (perform).
    /// Ends when the task is cancelled; throws what reading throws.
    public func changeStream(after revision: Int64? = nil) -> ChangeStream {
        ChangeStream(store: self, after: revision)
    }

    func commitWatch() -> FolderWatch {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return FolderWatch(folder: folder, names: [name, name + "-wal"])
    }
}

/// The changes of a store as they are committed by any process (Store.changeStream):
/// each once, in revision order, woken by the store's file (Store.waitForChange).
public struct ChangeStream: AsyncSequence, Sendable {
    public typealias Element = Change
    let store: Store
    let after: Int64?

    public func makeAsyncIterator() -> Iterator { Iterator(store: store, cursor: after) }

    public struct Iterator: AsyncIteratorProtocol {
        let store: Store
        var cursor: Int64?
        var pending: [Change] = []

        public mutating func next() async throws -> Change? {
            while pending.isEmpty {
                if Task.isCancelled { return nil }
                let read: Result<([Change], Int64), HabitError>
                do throws(HabitError) { read = .success(try await Self.nextBatch(store, after: self.cursor)) } catch { read = .failure(error) }
                // Cancelled before the wait started (perform's .cancelled): the stream ends as on any cancel.
                if case .failure(let error) = read, error.code == .cancelled, Task.isCancelled { return nil }
                (pending, self.cursor) = try read.get()
            }
            return pending.removeFirst()
        }

        /// Waits on a thread of its own, a short wait at a time so cancellation ends it soon.
        private static func nextBatch(_ store: Store, after cursor: Int64?) async throws(HabitError) -> ([Change], Int64) {
            try await store.perform { (store) throws(HabitError) -> ([Change], Int64) in
                let start: Int64
                if let cursor { start = cursor } else { start = try store.revision() }
                _ = try store.waitForChange(after: start, timeoutMs: 250)
                let batch = try store.changes(after: start, limit: 1000)
                return (batch, batch.last?.revision ?? start)
            }
        }
    }
}
