import CHabitCore
import HabitPlatform

// Swift concurrency. One mechanism, `perform`, runs a call on a thread of its own;
// every async method below is that and nothing more: `try await perform { try
// $0.sameName(sameArguments) }`, with the sync method's name, arguments, result and
// errors (Tests/IntegrationTests/HabitKitAsyncTests.swift holds this file to it). They
// cover what an app calls from its main actor: the reads a screen shows (habits,
// today's due list, streaks, history, progress, credits, awards, reminders, shields,
// events, changes) and the writes a tap makes (append, undo, edit and archive habits,
// vacations, rules, spends). For anything else, call perform yourself.

/// Set once when the task that asked for a call is cancelled; read by the call's
/// thread before it starts.
private final class CancelFlag: @unchecked Sendable {
    private let lock = Lock()
    private var cancelled = false
    func set() { lock.locked { cancelled = true } }
    var isSet: Bool { lock.locked { cancelled } }
}

extension Store {
    /// Runs body with this store on a thread of its own, off the caller's and off Swift
    /// concurrency's cooperative pool (a call may wait on another process's lock), for
    /// the calls an app must not make on its main actor: `try await store.perform { try $0.today() }`.
    ///
    /// Cancellation: a call whose task is cancelled before its thread starts body never
    /// starts, and throws .cancelled (nothing read or written). A call already running
    /// goes to its end and its result or error is given as if the task were not cancelled:
    /// the library cannot stop a call halfway, and a write it committed must not be
    /// reported as not done. Calls on one Store run one at a time in the library, in no
    /// promised order between concurrent tasks.
    public func perform<T: Sendable>(_ body: @escaping @Sendable (Store) throws(HabitError) -> T) async throws(HabitError) -> T {
        let cancelled = CancelFlag()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, HabitError>, Never>) in
                guard !Task.isCancelled else { return continuation.resume(returning: .failure(Self.cancelledBeforeStart)) }
                let started = runOnOwnThread {
                    guard !cancelled.isSet else { return continuation.resume(returning: .failure(Self.cancelledBeforeStart)) }
                    do throws(HabitError) { continuation.resume(returning: .success(try body(self))) } catch {
                        continuation.resume(returning: .failure(error))
                    }
                }
                if !started { continuation.resume(returning: .failure(HabitError(code: .noMemory, message: "no thread could be started"))) }
            }
        } onCancel: {
            cancelled.set()
        }
        return try result.get()
    }

    private static let cancelledBeforeStart = HabitError(code: .cancelled, message: "the task was cancelled before the call started; nothing was done")
}

// Reads.
extension Store {
    /// today(), off the caller's thread.
    public func today() async throws(HabitError) -> Day {
        try await perform { (store) throws(HabitError) in try store.today() }
    }

    /// habits(includingArchived:), off the caller's thread.
    public func habits(includingArchived: Bool = false) async throws(HabitError) -> [Habit] {
        try await perform { (store) throws(HabitError) in try store.habits(includingArchived: includingArchived) }
    }

    /// habit(id:), off the caller's thread.
    public func habit(id: HabitID) async throws(HabitError) -> Habit {
        try await perform { (store) throws(HabitError) in try store.habit(id: id) }
    }

    /// habit(named:), off the caller's thread.
    public func habit(named name: String) async throws(HabitError) -> Habit {
        try await perform { (store) throws(HabitError) in try store.habit(named: name) }
    }

    /// due(on:), off the caller's thread.
    public func due(on day: Day? = nil) async throws(HabitError) -> [DueItem] {
        try await perform { (store) throws(HabitError) in try store.due(on: day) }
    }

    /// groupDay(group:on:), off the caller's thread.
    public func groupDay(group: String? = nil, on day: Day? = nil) async throws(HabitError) -> GroupDay {
        try await perform { (store) throws(HabitError) in try store.groupDay(group: group, on: day) }
    }

    /// quitStatus(habitID:atMs:), off the caller's thread.
    public func quitStatus(habitID: HabitID, atMs: Int64 = 0) async throws(HabitError) -> QuitStatus {
        try await perform { (store) throws(HabitError) in try store.quitStatus(habitID: habitID, atMs: atMs) }
    }

    /// startTimer(habitID:autoComplete:atMs:), off the caller's thread.
    public func startTimer(habitID: HabitID, autoComplete: Bool = false, atMs: Int64 = 0) async throws(HabitError) -> TimerID {
        try await perform { (store) throws(HabitError) in try store.startTimer(habitID: habitID, autoComplete: autoComplete, atMs: atMs) }
    }

    /// actOnTimer(_:_:atMs:), off the caller's thread.
    public func actOnTimer(_ id: TimerID, _ action: TimerAction, atMs: Int64 = 0) async throws(HabitError) {
        try await perform { (store) throws(HabitError) in try store.actOnTimer(id, action, atMs: atMs) }
    }

    /// timerStatus(_:atMs:), off the caller's thread.
    public func timerStatus(_ id: TimerID, atMs: Int64 = 0) async throws(HabitError) -> TimerStatus {
        try await perform { (store) throws(HabitError) in try store.timerStatus(id, atMs: atMs) }
    }

    /// runningTimers(atMs:), off the caller's thread.
    public func runningTimers(atMs: Int64 = 0) async throws(HabitError) -> [TimerStatus] {
        try await perform { (store) throws(HabitError) in try store.runningTimers(atMs: atMs) }
    }

    /// streaks(habitID:asOf:best:), off the caller's thread.
    public func streaks(habitID: HabitID, asOf day: Day? = nil, best: Int = 0) async throws(HabitError) -> Streaks {
        try await perform { (store) throws(HabitError) in try store.streaks(habitID: habitID, asOf: day, best: best) }
    }

    /// storeStreaks(asOf:), off the caller's thread.
    public func storeStreaks(asOf day: Day? = nil) async throws(HabitError) -> StoreStreaks {
        try await perform { (store) throws(HabitError) in try store.storeStreaks(asOf: day) }
    }

    /// entries(habitID:from:through:), off the caller's thread.
    public func entries(habitID: HabitID?, from: Day, through: Day) async throws(HabitError) -> [Entry] {
        try await perform { (store) throws(HabitError) in try store.entries(habitID: habitID, from: from, through: through) }
    }

    /// dayTotal(habitID:day:), off the caller's thread.
    public func dayTotal(habitID: HabitID, day: Day) async throws(HabitError) -> Double {
        try await perform { (store) throws(HabitError) in try store.dayTotal(habitID: habitID, day: day) }
    }

    /// dayStates(habitID:from:through:), off the caller's thread.
    public func dayStates(habitID: HabitID, from: Day, through: Day) async throws(HabitError) -> [DayState] {
        try await perform { (store) throws(HabitError) in try store.dayStates(habitID: habitID, from: from, through: through) }
    }

    /// dayScores(from:through:), off the caller's thread.
    public func dayScores(from: Day, through: Day) async throws(HabitError) -> [DayScore] {
        try await perform { (store) throws(HabitError) in try store.dayScores(from: from, through: through) }
    }

    /// strength(habitID:from:through:), off the caller's thread.
    public func strength(habitID: HabitID, from: Day, through: Day) async throws(HabitError) -> [Double] {
        try await perform { (store) throws(HabitError) in try store.strength(habitID: habitID, from: from, through: through) }
    }

    /// completion(habitID:from:through:), off the caller's thread.
    public func completion(habitID: HabitID, from: Day, through: Day) async throws(HabitError) -> Completion {
        try await perform { (store) throws(HabitError) in try store.completion(habitID: habitID, from: from, through: through) }
    }

    /// measurements(habitID:from:through:), off the caller's thread.
    public func measurements(habitID: HabitID, from: Day, through: Day) async throws(HabitError) -> MeasurementStats {
        try await perform { (store) throws(HabitError) in try store.measurements(habitID: habitID, from: from, through: through) }
    }

    /// vacations(), off the caller's thread.
    public func vacations() async throws(HabitError) -> [Vacation] {
        try await perform { (store) throws(HabitError) in try store.vacations() }
    }

    /// balance(account:), off the caller's thread.
    public func balance(account: CreditAccountID = Store.defaultAccount) async throws(HabitError) -> Int64 {
        try await perform { (store) throws(HabitError) in try store.balance(account: account) }
    }

    /// creditDay(account:day:), off the caller's thread.
    public func creditDay(account: CreditAccountID = Store.defaultAccount, day: Day? = nil) async throws(HabitError) -> CreditDay {
        try await perform { (store) throws(HabitError) in try store.creditDay(account: account, day: day) }
    }

    /// unlockState(account:atMs:), off the caller's thread.
    public func unlockState(account: CreditAccountID = Store.defaultAccount, atMs: Int64 = 0) async throws(HabitError) -> UnlockState {
        try await perform { (store) throws(HabitError) in try store.unlockState(account: account, atMs: atMs) }
    }

    /// awardProgress(asOf:), off the caller's thread.
    public func awardProgress(asOf day: Day? = nil) async throws(HabitError) -> [Award] {
        try await perform { (store) throws(HabitError) in try store.awardProgress(asOf: day) }
    }

    /// unlockedAwards(), off the caller's thread.
    public func unlockedAwards() async throws(HabitError) -> [Award] {
        try await perform { (store) throws(HabitError) in try store.unlockedAwards() }
    }

    /// reminderRules(habitID:on:), off the caller's thread.
    public func reminderRules(habitID: HabitID? = nil, on day: Day? = nil) async throws(HabitError) -> [StoredReminderRule] {
        try await perform { (store) throws(HabitError) in try store.reminderRules(habitID: habitID, on: day) }
    }

    /// shieldRules(on:), off the caller's thread.
    public func shieldRules(on day: Day? = nil) async throws(HabitError) -> [StoredShieldRule] {
        try await perform { (store) throws(HabitError) in try store.shieldRules(on: day) }
    }

    /// shieldState(atMs:), off the caller's thread.
    public func shieldState(atMs: Int64 = 0) async throws(HabitError) -> ShieldState {
        try await perform { (store) throws(HabitError) in try store.shieldState(atMs: atMs) }
    }

    /// events(after:limit:acknowledge:), off the caller's thread.
    public func events(after afterID: EventID? = nil, limit: Int64 = 100, acknowledge: Bool = false) async throws(HabitError) -> [Event] {
        try await perform { (store) throws(HabitError) in try store.events(after: afterID, limit: limit, acknowledge: acknowledge) }
    }

    /// revision(), off the caller's thread.
    public func revision() async throws(HabitError) -> Int64 {
        try await perform { (store) throws(HabitError) in try store.revision() }
    }

    /// changes(after:limit:merged:), off the caller's thread.
    public func changes(after revision: Int64 = 0, limit: Int64 = 1000, merged: Bool = false) async throws(HabitError) -> [Change] {
        try await perform { (store) throws(HabitError) in try store.changes(after: revision, limit: limit, merged: merged) }
    }
}

// Writes.
extension Store {
    /// createHabit(_:), off the caller's thread.
    public func createHabit(_ options: HabitOptions) async throws(HabitError) -> HabitID {
        try await perform { (store) throws(HabitError) in try store.createHabit(options) }
    }

    /// updateHabit(id:_:fields:), off the caller's thread.
    public func updateHabit(id: HabitID, _ options: HabitOptions, fields: HabitFields) async throws(HabitError) {
        try await perform { (store) throws(HabitError) in try store.updateHabit(id: id, options, fields: fields) }
    }

    /// updateHabit(id:_:fields:from:), off the caller's thread.
    @discardableResult
    public func updateHabit(id: HabitID, _ options: HabitOptions, fields: HabitFields, from: Day?) async throws(HabitError) -> ClosedRange<Day>? {
        try await perform { (store) throws(HabitError) in try store.updateHabit(id: id, options, fields: fields, from: from) }
    }

    /// setArchived(_:habitID:), off the caller's thread.
    public func setArchived(_ archived: Bool, habitID: HabitID) async throws(HabitError) {
        try await perform { (store) throws(HabitError) in try store.setArchived(archived, habitID: habitID) }
    }

    /// setArchived(_:habitID:from:), off the caller's thread.
    @discardableResult
    public func setArchived(_ archived: Bool, habitID: HabitID, from: Day?) async throws(HabitError) -> ClosedRange<Day>? {
        try await perform { (store) throws(HabitError) in try store.setArchived(archived, habitID: habitID, from: from) }
    }

    /// append(_:), off the caller's thread.
    @discardableResult
    public func append(_ entry: EntryInput) async throws(HabitError) -> EntryID {
        try await perform { (store) throws(HabitError) in try store.append(entry) }
    }

    /// undo(entryID:), off the caller's thread.
    @discardableResult
    public func undo(entryID: EntryID) async throws(HabitError) -> EntryID {
        try await perform { (store) throws(HabitError) in try store.undo(entryID: entryID) }
    }

    /// undoLast(habitID:day:), off the caller's thread.
    @discardableResult
    public func undoLast(habitID: HabitID, day: Day? = nil) async throws(HabitError) -> EntryID {
        try await perform { (store) throws(HabitError) in try store.undoLast(habitID: habitID, day: day) }
    }

    /// relapse(habitID:note:amount:atMs:key:), off the caller's thread.
    @discardableResult
    public func relapse(habitID: HabitID, note: String? = nil, amount: Double = 0, atMs: Int64 = 0, key: String? = nil) async throws(HabitError)
        -> EntryID
    {
        try await perform { (store) throws(HabitError) in try store.relapse(habitID: habitID, note: note, amount: amount, atMs: atMs, key: key) }
    }

    /// addVacation(habitID:from:through:), off the caller's thread.
    @discardableResult
    public func addVacation(habitID: HabitID? = nil, from: Day, through: Day) async throws(HabitError) -> VacationID {
        try await perform { (store) throws(HabitError) in try store.addVacation(habitID: habitID, from: from, through: through) }
    }

    /// removeVacation(id:), off the caller's thread.
    public func removeVacation(id: VacationID) async throws(HabitError) {
        try await perform { (store) throws(HabitError) in try store.removeVacation(id: id) }
    }

    /// syncSteps(_:account:day:), off the caller's thread.
    @discardableResult
    public func syncSteps(_ steps: Int64, account: CreditAccountID = Store.defaultAccount, day: Day? = nil) async throws(HabitError) -> StepSync {
        try await perform { (store) throws(HabitError) in try store.syncSteps(steps, account: account, day: day) }
    }

    /// spend(_:account:reason:unlock:), off the caller's thread.
    @discardableResult
    public func spend(
        _ minutes: Int64, account: CreditAccountID = Store.defaultAccount, reason: String? = nil, unlock: Bool = false
    ) async throws(HabitError) -> CreditEntryID {
        try await perform { (store) throws(HabitError) in try store.spend(minutes, account: account, reason: reason, unlock: unlock) }
    }

    /// evaluateAwards(asOf:), off the caller's thread.
    @discardableResult
    public func evaluateAwards(asOf day: Day? = nil) async throws(HabitError) -> [Award] {
        try await perform { (store) throws(HabitError) in try store.evaluateAwards(asOf: day) }
    }

    /// addReminderRule(_:), off the caller's thread.
    @discardableResult
    public func addReminderRule(_ rule: ReminderRule) async throws(HabitError) -> ReminderRuleID {
        try await perform { (store) throws(HabitError) in try store.addReminderRule(rule) }
    }

    /// updateReminderRule(id:_:from:), off the caller's thread.
    public func updateReminderRule(id: ReminderRuleID, _ rule: ReminderRule, from day: Day? = nil) async throws(HabitError) {
        try await perform { (store) throws(HabitError) in try store.updateReminderRule(id: id, rule, from: day) }
    }

    /// removeReminderRule(id:from:), off the caller's thread.
    public func removeReminderRule(id: ReminderRuleID, from day: Day? = nil) async throws(HabitError) {
        try await perform { (store) throws(HabitError) in try store.removeReminderRule(id: id, from: day) }
    }

    /// addShieldRule(_:from:), off the caller's thread.
    @discardableResult
    public func addShieldRule(_ rule: ShieldRule, from day: Day? = nil) async throws(HabitError) -> ShieldRuleID {
        try await perform { (store) throws(HabitError) in try store.addShieldRule(rule, from: day) }
    }

    /// updateShieldRule(id:_:from:), off the caller's thread.
    public func updateShieldRule(id: ShieldRuleID, _ rule: ShieldRule, from day: Day? = nil) async throws(HabitError) {
        try await perform { (store) throws(HabitError) in try store.updateShieldRule(id: id, rule, from: day) }
    }

    /// removeShieldRule(id:from:), off the caller's thread.
    public func removeShieldRule(id: ShieldRuleID, from day: Day? = nil) async throws(HabitError) {
        try await perform { (store) throws(HabitError) in try store.removeShieldRule(id: id, from: day) }
    }

    /// emergencyUnlock(ruleID:minutes:reason:), off the caller's thread.
    @discardableResult
    public func emergencyUnlock(ruleID: ShieldRuleID, minutes: Int32, reason: String? = nil) async throws(HabitError) -> EmergencyUnlockID {
        try await perform { (store) throws(HabitError) in try store.emergencyUnlock(ruleID: ruleID, minutes: minutes, reason: reason) }
    }
}
