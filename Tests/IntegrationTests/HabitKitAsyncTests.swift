import Foundation
import HabitCore
import HabitKit
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// HabitKit's typed ids and its async calls, on real store files: ids round-trip through
/// the library, Codable and JSON as the header's numbers; async calls run on a thread of
/// their own, leave the main thread and Swift's cooperative pool free while they wait on
/// another connection's lock, and a cancelled task starts no call.
final class HabitKitAsyncTests: XCTestCase {
    // MARK: Typed ids

    func testTypedIDsRoundTripThroughTheStore() throws {
        let (store, path) = try freshStore()
        let walk = try store.createHabit(HabitOptions(name: "Walk"))
        let read = try store.createHabit(HabitOptions(name: "Read"))
        XCTAssertLessThan(walk, read, "ids grow in the order rows were made")
        XCTAssertEqual(try store.habit(id: HabitID(rawValue: walk.rawValue)).name, "Walk")
        XCTAssertEqual(try store.habits().map(\.id), [walk, read], "Habit is Identifiable by its HabitID")
        let entry = try store.append(EntryInput(habitID: walk))
        let undo = try store.undo(entryID: entry)
        let entries = try store.entries(habitID: walk, from: try store.today(), through: try store.today())
        XCTAssertEqual(entries.map(\.id), [entry, undo])
        XCTAssertEqual(entries.first?.undoneBy, undo)
        XCTAssertEqual(entries.last?.undoes, entry)
        XCTAssertEqual(Set(entries.map(\.habitID)), [walk])

        let reminder = try store.addReminderRule(ReminderRule(habitID: read, minute: 8 * 60))
        XCTAssertEqual(try store.reminderRules(habitID: read).map(\.id), [reminder])
        let shield = try store.addShieldRule(ShieldRule(name: "apps", key: "apps", habitIDs: [walk, read]))
        XCTAssertEqual(try store.shieldRules().map(\.id), [shield])
        XCTAssertEqual(try store.shieldRules().first?.rule.habitIDs, [walk, read])
        XCTAssertEqual(try store.shieldState().rules.first?.outstanding, [walk, read])
        let vacation = try store.addVacation(habitID: read, from: try store.today(), through: try store.today())
        XCTAssertEqual(try store.vacations().map(\.id), [vacation])
        XCTAssertEqual(try store.vacations().first?.habitID, read)

        // Another handle on the same file reads the same ids: they are the header's numbers.
        let other = try HabitKit.Store(path: path, options: .readOnly)
        XCTAssertEqual(try other.habit(named: "Read").id, read)
        XCTAssertEqual(try other.entries(habitID: nil, from: try other.today(), through: try other.today()).map(\.id), [entry, undo])
        expect(.notFound) { _ = try other.habit(id: 999) }  // an integer literal is an id
    }

    func testTypedIDsEncodeAsTheirNumber() throws {
        // Seeded: the same 500 numbers every run, spread over the whole Int64 range.
        var generator = SplitMix(seed: 0x5EED_1D5)
        let numbers = (0..<500).map { _ in Int64(bitPattern: generator.next()) } + [0, 1, .max, .min]
        for number in numbers {
            let id = HabitID(rawValue: number)
            let json = try JSONEncoder().encode(id)
            XCTAssertEqual(String(decoding: json, as: UTF8.self), String(number), "an id is its bare number in JSON")
            XCTAssertEqual(try JSONDecoder().decode(HabitID.self, from: json), id)
            XCTAssertEqual(id.description, String(number))
            XCTAssertEqual("\(id)", String(number))
        }
        let ids = numbers.map(EntryID.init(rawValue:))
        XCTAssertEqual(ids.sorted().map(\.rawValue), numbers.sorted(), "ids order as their numbers")
        XCTAssertEqual(Set(ids).count, Set(numbers).count, "equal numbers, equal ids; different numbers, different ids")

        struct Row: Codable, Equatable {
            var habit: HabitID
            var rule: ShieldRuleID?
        }
        let row = Row(habit: 7, rule: nil)
        let text = String(decoding: try JSONEncoder().encode(row), as: UTF8.self)
        XCTAssertEqual(text, #"{"habit":7}"#)
        XCTAssertEqual(try JSONDecoder().decode(Row.self, from: Data(#"{"habit":7,"rule":3}"#.utf8)), Row(habit: 7, rule: 3))
        XCTAssertThrowsError(try JSONDecoder().decode(Row.self, from: Data(#"{"habit":"7"}"#.utf8)), "an id is a number, not text")
    }

    /// HabitKit's public API has no bare Int64 id: each id property and parameter is typed.
    /// The one kind of id left a number is a cause's (an award's or a credit entry's
    /// causeID), whose kind depends on the cause.
    func testNoPublicIDIsABareInt64() throws {
        let folder = Paths.root + "/Sources/HabitKit"
        var bare: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains("public ") {
                let declaration = line.replacingOccurrences(of: "causeID: Int64", with: "")
                if declaration.range(of: #"\b\w*(id|ID|Id)s?: \[?Int64"#, options: .regularExpression) != nil {
                    bare.append("\(file): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        XCTAssertEqual(bare, [], "public ids that are bare Int64")
    }

    // MARK: Async calls

    /// Every async method in Async.swift is perform running the sync method of the same
    /// name: one mechanism, thin overloads (the rule Async.swift states).
    func testEveryAsyncCallIsPerformOverTheSyncCall() throws {
        let text = try String(contentsOfFile: Paths.root + "/Sources/HabitKit/Async.swift", encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var checked = 0
        for (index, line) in lines.enumerated() where line.contains("public func ") && !line.contains("func perform") {
            guard let name = line.split(separator: "func ").last?.split(separator: "(").first.map(String.init) else { continue }
            var body = index + 1
            while body < lines.count, !lines[body].contains("try await perform") { body += 1 }
            XCTAssertLessThanOrEqual(body - index, 3, "\(name): the body is perform at once")
            XCTAssertTrue(
                body < lines.count && lines[body].contains("try await perform { (store) throws(HabitError) in try store.\(name)("),
                "\(name) is not `perform { try store.\(name)(...) }`")
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 40, "the app's reads and writes have async forms")
    }

    func testAsyncCallsRunOnAThreadOfTheirOwn() async throws {
        let (store, _) = try freshStore()
        let caller = currentThread()
        let ran = try await store.perform { (store) throws(HabitKit.HabitError) in (currentThread(), Thread.isMainThread, try store.today()) }
        XCTAssertFalse(pthread_equal(ran.0, caller) != 0, "perform ran body on the caller's thread")
        XCTAssertFalse(ran.1, "perform ran body on the main thread")
        let today = try await store.today()
        XCTAssertEqual(today, ran.2)
        let walk = try await store.createHabit(HabitOptions(name: "Walk"))
        try await store.append(EntryInput(habitID: walk))
        let habits = try await store.habits()
        XCTAssertEqual(habits.map(\.id), [walk])
        let streaks = try await store.streaks(habitID: walk)
        XCTAssertEqual(streaks.current.length, 1)
        let due = try await store.due()
        XCTAssertEqual(due.map(\.habitID), [walk])
        do {
            _ = try await store.habit(id: 999)
            XCTFail("no error for an unknown habit")
        } catch {
            XCTAssertEqual(error.code, .notFound, "an async call throws the sync call's HabitError")
        }
    }

    @MainActor
    func testAViewModelOnTheMainActorAwaitsWithoutBlockingIt() async throws {
        let (store, _) = try freshStore()
        XCTAssertTrue(Thread.isMainThread)
        let model = TodayModel(store: store)
        let walk = try await store.createHabit(HabitOptions(name: "Walk"))
        try await model.log(walk)
        XCTAssertEqual(model.habits.map { $0.id }, [walk])
        XCTAssertEqual(model.done, [walk])
        let onMain = try await store.perform { _ in Thread.isMainThread }
        XCTAssertFalse(onMain, "a call from the main actor runs off the main thread")
    }

    /// Calls waiting on another connection's write lock hold their own threads, not Swift's
    /// cooperative pool (as many as the cores): more waiting calls than the pool has
    /// threads, and other tasks still run.
    func testWaitingCallsLeaveTheCooperativePoolFree() async throws {
        let (store, path, walk) = try storeWithWalk()
        let holder = try WriteLockHolder(path: path, habit: walk)
        let waiting = ProcessInfo.processInfo.activeProcessorCount * 2 + 2
        let started = DispatchSemaphore(value: 0), finished = Locked(0)
        let calls = (0..<waiting).map { _ in
            Task {
                try await store.perform { (store) throws(HabitKit.HabitError) -> EntryID in
                    started.signal()
                    defer { finished.update { $0 += 1 } }
                    return try store.append(EntryInput(habitID: walk))
                }
            }
        }
        for _ in 0..<waiting { await wait(started) }
        let other = await Task.detached { (1...100).reduce(0, +) }.value
        XCTAssertEqual(other, 5050)
        XCTAssertEqual(finished.value, 0, "every call is still waiting on the lock while other tasks ran")
        holder.release()
        for call in calls { _ = try await call.value }
        let today = try await store.today()
        let entries = try await store.entries(habitID: walk, from: today, through: today)
        XCTAssertEqual(entries.count, waiting + 1)
    }

    func testACancelledTaskStartsNoCall() async throws {
        let (store, _, walk) = try storeWithWalk()
        let task = Task { () async throws -> EntryID in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await store.append(EntryInput(habitID: walk))
        }
        switch await task.result {
        case .success: XCTFail("a call of a cancelled task ran")
        case .failure(let error): XCTAssertEqual((error as? HabitKit.HabitError)?.code, .cancelled, "\(error)")
        }
        let today = try await store.today()
        let entries = try await store.entries(habitID: walk, from: today, through: today)
        XCTAssertEqual(entries, [], "nothing was written")
    }

    /// A call already running when its task is cancelled goes to its end and gives its
    /// result: the write it committed is reported, not hidden behind .cancelled.
    func testACallInFlightFinishesAndGivesItsResult() async throws {
        let (store, path, walk) = try storeWithWalk()
        let holder = try WriteLockHolder(path: path, habit: walk)
        let started = DispatchSemaphore(value: 0)
        let task = Task {
            try await store.perform { (store) throws(HabitKit.HabitError) -> EntryID in
                started.signal()
                return try store.append(EntryInput(habitID: walk))
            }
        }
        await wait(started)
        task.cancel()
        holder.release()
        let entry = try await task.value
        let today = try await store.today()
        let entries = try await store.entries(habitID: walk, from: today, through: today)
        XCTAssertEqual(entries.count, 2, "the holder's entry, then the call's")
        XCTAssertEqual(entries.last?.id, entry)
    }

    /// A store with the habit Walk that waits up to a minute for another writer.
    private func storeWithWalk() throws -> (HabitKit.Store, String, HabitID) {
        let (store, path) = try freshStore()
        let walk = try store.createHabit(HabitOptions(name: "Walk"))
        try store.setBusyTimeout(milliseconds: 60_000)
        return (store, path, walk)
    }

    /// Waits for a signal without holding a cooperative thread; fails after a minute
    /// (a call that never started: it found no thread to run on).
    private func wait(_ semaphore: DispatchSemaphore, file: StaticString = #filePath, line: UInt = #line) async {
        let signalled = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            DispatchQueue.global().async { done.resume(returning: semaphore.wait(timeout: .now() + 60) == .success) }
        }
        XCTAssertTrue(signalled, "no signal within a minute", file: file, line: line)
    }
}

/// What a SwiftUI view model does: state on the main actor, the store's calls awaited.
@MainActor
private final class TodayModel {
    let store: HabitKit.Store
    private(set) var habits: [HabitKit.Habit] = []
    private(set) var done: [HabitID] = []

    init(store: HabitKit.Store) { self.store = store }

    func log(_ habit: HabitID) async throws {
        try await store.append(EntryInput(habitID: habit))
        try await refresh()
    }

    func refresh() async throws {
        habits = try await store.habits()
        done = try await store.due().filter { $0.state == .done }.map(\.habitID)
    }
}

/// Another connection to the store holding its write lock, in a transaction on a thread
/// of its own, until release().
private final class WriteLockHolder: @unchecked Sendable {
    private let go = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)

    init(path: String, habit: HabitID) throws {
        let store = try HabitKit.Store(path: path)
        let locked = DispatchSemaphore(value: 0)
        let go = go, ended = ended
        Thread.detachNewThread {
            _ = try? store.transaction { () throws(HabitKit.HabitError) in
                try store.append(EntryInput(habitID: habit))
                locked.signal()
                go.wait()
            }
            ended.signal()
        }
        locked.wait()
    }

    func release() {
        go.signal()
        ended.wait()
    }
}

/// The caller's thread, read outside any async context.
private func currentThread() -> pthread_t { pthread_self() }
