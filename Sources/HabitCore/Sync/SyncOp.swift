/// A record's identity across replicas: the replica that wrote it and that replica's
/// sequence number for the write (1, 2, ...). Local integer ids differ per store;
/// these do not.
package struct GlobalId: Hashable, Comparable, Sendable {
    package static let replicaBytes = 16
    package var replica: [UInt8]
    package var seq: Int64
    /// Where an op names a record: the clock stamp of the op that made it (0: not said,
    /// as in ops written before 1.1). Not part of the identity: it tells apart the two
    /// records a forked replica gave one id (SyncFork), so a reference finds its record
    /// after that record's branch moved.
    package var stamp: Int64

    package init(replica: [UInt8], seq: Int64, stamp: Int64 = 0) {
        self.replica = replica
        self.seq = seq
        self.stamp = stamp
    }

    package static func == (a: GlobalId, b: GlobalId) -> Bool { a.seq == b.seq && a.replica == b.replica }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(replica)
        hasher.combine(seq)
    }

    package static func < (a: GlobalId, b: GlobalId) -> Bool {
        a.replica != b.replica ? a.replica.lexicographicallyPrecedes(b.replica) : a.seq < b.seq
    }

    /// "0123abcd…-42": the replica in hex, then the sequence number.
    package var text: String { "\(SyncHex.encode(replica))-\(seq)" }
}

package enum SyncHex {
    package static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        for b in bytes { text.append(digits[Int(b >> 4)]); text.append(digits[Int(b & 15)]) }
        return text
    }

    package static func decode(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: return c - 48
            case 97...102: return c - 87
            case 65...70: return c - 55
            default: return nil
            }
        }
        var out: [UInt8] = []
        var i = 0
        while i < chars.count {
            guard let hi = nibble(chars[i]), let lo = nibble(chars[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }
}

/// The habit fields that merge one by one, last writer wins (the kind is fixed at creation).
package enum HabitField: UInt8, CaseIterable, Sendable {
    case name = 1, target = 2, direction = 3, group = 4, unit = 5, routine = 6, proofRequired = 7, startDay = 8, archivedDay = 9
    // What a frontend shows (HabitDisplay): each merges on its own, as the fields above.
    case description = 10, question = 11, colour = 12, icon = 13, position = 14
    // The habit's own streak policy (StreakPolicy.Override; null: the store's).
    case missAllowance = 15, openDay = 16

    package static let display: [HabitField] = [.description, .question, .colour, .icon, .position]
    package static let streakPolicy: [HabitField] = [.missAllowance, .openDay]

    /// The streak policy fields that differ between old and new, as the ops that carry them.
    package static func streakPolicyChanges(from old: StreakPolicy.Override, to new: StreakPolicy.Override) -> [(HabitField, SyncValue)] {
        streakPolicy.compactMap { field in
            let value = field.value(in: new)
            return value == field.value(in: old) ? nil : (field, value)
        }
    }

    /// This streak policy field's value in policy (.null for any other field).
    package func value(in policy: StreakPolicy.Override) -> SyncValue {
        switch self {
        case .missAllowance: return policy.missAllowance.map { .int(Int64($0)) } ?? .null
        case .openDay: return policy.openDay.map { .int(Int64($0.rawValue)) } ?? .null
        default: return .null
        }
    }

    /// policy with this streak policy field set to value; nil when the value is not
    /// one the field can hold.
    package func setting(_ value: SyncValue, in policy: StreakPolicy.Override) -> StreakPolicy.Override? {
        var policy = policy
        switch (self, value) {
        case (.missAllowance, .null): policy.missAllowance = nil
        case (.missAllowance, .int(let v)):
            guard let allowance = Int32(exactly: v), (try? StreakPolicy.validate(missAllowance: allowance)) != nil else { return nil }
            policy.missAllowance = allowance
        case (.openDay, .null): policy.openDay = nil
        case (.openDay, .int(let v)):
            guard let raw = Int32(exactly: v), let openDay = StreakPolicy.OpenDay(rawValue: raw) else { return nil }
            policy.openDay = openDay
        default: return nil
        }
        return policy
    }

    /// The display fields that differ between old and new, as the ops that carry them.
    package static func displayChanges(from old: HabitDisplay, to new: HabitDisplay) -> [(HabitField, SyncValue)] {
        display.compactMap { field in
            let value = field.value(in: new)
            return value == field.value(in: old) ? nil : (field, value)
        }
    }

    /// This display field's value in display (.null for any other field).
    package func value(in display: HabitDisplay) -> SyncValue {
        func text(_ text: String?) -> SyncValue { text.map(SyncValue.text) ?? .null }
        switch self {
        case .description: return text(display.description)
        case .question: return text(display.question)
        case .colour: return text(display.colour)
        case .icon: return text(display.icon)
        case .position: return .int(display.position)
        default: return .null
        }
    }

    /// display with this display field set to value; nil when the value is not one the
    /// field can hold (a number for a text, a text for the position).
    package func setting(_ value: SyncValue, in display: HabitDisplay) -> HabitDisplay? {
        var display = display
        let text: String?
        switch value {
        case .null: text = nil
        case .text(let t): text = t
        case .int(let v):
            guard self == .position else { return nil }
            display.position = v
            return display
        case .double: return nil
        }
        switch self {
        case .description: display.description = text
        case .question: display.question = text
        case .colour: display.colour = text
        case .icon: display.icon = text
        default: return nil
        }
        return display
    }
}

/// A field value as the sync format carries it.
package enum SyncValue: Equatable, Sendable {
    case null
    case int(Int64)
    case double(Double)
    case text(String)
}

/// One replicated write. Each is stamped with its writer's global id and a hybrid
/// logical clock in the log; what an op names (a habit, an undone entry, a removed
/// vacation) it names by global id.
package enum SyncOp: Equatable, Sendable {
    /// A new habit; its global id is the op's. Fields change later by habitField.
    indirect case habitCreate(spec: HabitSpec, createdAtMs: Int64)
    case habitField(habit: GlobalId, field: HabitField, value: SyncValue)
    /// The schedule in force from a day on, as older replicas write it: it changes
    /// only the schedule of the version of that day (the last writer wins per habit and day).
    case schedule(habit: GlobalId, fromDay: Int32, schedule: Schedule)
    /// Every judging setting in force from a day on (the last writer wins per habit
    /// and day, one register with the schedule ops of that day).
    case settingsVersion(habit: GlobalId, version: SettingsVersion)
    /// A ledger entry; its global id is the op's. An undo names the entry it cancels.
    case entry(
        habit: GlobalId, day: Int32, kind: EntryKind, value: Double, recordedAtMs: Int64, source: EntrySource,
        note: String?, undoes: GlobalId?)
    /// A vacation (habit nil: every habit); its global id is the op's.
    case vacationAdd(habit: GlobalId?, first: Int32, last: Int32)
    case vacationRemove(vacation: GlobalId)
    /// A store setting that follows the person (see SyncOp.syncedSettings).
    case setting(key: String, value: String)
    /// A photo proof's record (its global id is the op's); the evidence bytes stay on
    /// the device that received them.
    /// (indirect, as verdict: the large cases stay out of every op's inline size.)
    indirect case proof(
        habit: GlobalId, day: Int32, sha256: String, size: Int64, mediaType: String, takenAtMs: Int64?, receivedAtMs: Int64,
        metadata: String?)
    /// A verdict on a proof (its global id is the op's), naming the entry it appended, if any.
    indirect case verdict(proof: GlobalId, verdict: Verdict, entry: GlobalId?)
    /// A new shield rule; its global id is the op's. What it says comes by shieldVersion.
    case shieldRule(createdAtMs: Int64)
    /// What a shield rule says from a day on (nil: removed from that day on); the last
    /// writer wins per rule and day. The habits it names travel by global id (the
    /// settings' own habits list is empty here).
    indirect case shieldVersion(rule: GlobalId, fromDay: Int32, settings: ShieldRule.Settings?, habits: [GlobalId])
    /// An emergency unlock of a rule (its global id is the op's), with the habit day its
    /// writer counted it on: a union of records, never dropped.
    indirect case emergencyUnlock(rule: GlobalId, atMs: Int64, day: Int32, minutes: Int32, reason: String?)
    /// A timer event (its global id is the op's; a start's is the timer's). A start names
    /// its habit (subject), the day its time counts to and its auto-complete flag; the
    /// other actions name the start (subject) and carry day 0 and no flag.
    indirect case timerEvent(action: TimerAction, subject: GlobalId, day: Int32, autoComplete: Bool, atMs: Int64)

    /// A credit account, named (its identity across replicas is its name, compared
    /// without case; the account "default" every store has is never logged).
    case creditAccount(name: String, createdAtMs: Int64)
    /// A credit fact (CreditEntry.isFact): a spend, a manual adjustment or a refund,
    /// kept as a record (its global id is the op's). Earnings and expiries are not
    /// sent: every replica derives them from the facts (CreditFold.derivations).
    indirect case credit(account: String, kind: CreditKind, minutes: Int64, day: Int32, atMs: Int64, reason: String?)
    /// A step report: a day's cumulative total (its global id is the op's).
    case steps(account: String, day: Int32, steps: Int64, atMs: Int64)
    /// A credit rule from a day on (its global id is the op's): the last writer wins per
    /// account, kind, habit and day, as a later rule for the same day wins locally.
    case creditRule(account: String, kind: CreditRule.Kind, habit: GlobalId?, value: Int64, fromDay: Int32, recordedAtMs: Int64)

    /// An award unlocked on its writer (its global id is the op's): the rule as it was
    /// judged (a habit scope names its habit by scopeHabit; the rule's own id there is
    /// a placeholder), the crossing day, and what crossed it by global id when that
    /// record travels (an entry, a credit fact, a habit's creation). Every replica keeps
    /// every unlock; the earliest crossing day wins per award (SyncMerge.awardWinner).
    indirect case awardUnlock(
        rule: AwardRule, scopeHabit: GlobalId?, day: Int32, atMs: Int64, cause: AwardUnlock.CauseKind,
        causeRecord: GlobalId?, causeHabit: GlobalId?)
    /// A change of the store's time zone at an instant (shields read this history): a
    /// union of records, ordered by instant everywhere.
    case zoneChange(atMs: Int64, from: String, to: String)
    /// Not an op of the log: a proof's evidence bytes, sent beside the proof's op when
    /// a changeset is asked for with them (its id is the proof's, its stamp 0). The
    /// receiver keeps them as the proof's copy when they hash to the proof's sha256.
    indirect case evidence(sha256: String, bytes: [UInt8])
    /// Not an op of the log: a forked replica's branch moved (SyncFork.Move), sent
    /// beside the ops so a receiver finds a record named by its old id under its new
    /// one. Its id is (the replica, the first number moved), its stamp 0.
    case branchMoved(to: [UInt8])

    package enum Kind: UInt8, CaseIterable, Sendable {
        case habitCreate = 1, habitField = 2, schedule = 3, entry = 4, vacationAdd = 5, vacationRemove = 6, setting = 7, proof = 8, verdict = 9
        case creditAccount = 10, credit = 11, steps = 12
        case awardUnlock = 13, creditRule = 14, zoneChange = 15
        case shieldRule = 16, shieldVersion = 17, emergencyUnlock = 18
        case evidence = 20, branchMoved = 21
        case settingsVersion = 22
        case timerEvent = 23
    }

    /// Settings that travel: the day clock and the person's reading rules (the store's
    /// streak policy, the routine boundaries); the rest (event cursors, the referral
    /// code, caches) stay local.
    package static let syncedSettings: Set<String> = [
        "timezone", "day_start_minutes", "week_start", "streak_miss_allowance", "streak_open_day", "streak_off_days", "routine_bounds",
    ]

    package var kind: Kind {
        switch self {
        case .habitCreate: return .habitCreate
        case .habitField: return .habitField
        case .schedule: return .schedule
        case .entry: return .entry
        case .vacationAdd: return .vacationAdd
        case .vacationRemove: return .vacationRemove
        case .setting: return .setting
        case .proof: return .proof
        case .verdict: return .verdict
        case .shieldRule: return .shieldRule
        case .shieldVersion: return .shieldVersion
        case .emergencyUnlock: return .emergencyUnlock
        case .timerEvent: return .timerEvent
        case .creditAccount: return .creditAccount
        case .credit: return .credit
        case .steps: return .steps
        case .creditRule: return .creditRule
        case .awardUnlock: return .awardUnlock
        case .zoneChange: return .zoneChange
        case .evidence: return .evidence
        case .branchMoved: return .branchMoved
        case .settingsVersion: return .settingsVersion
        }
    }

    /// The records this op needs applied before it can be: until they arrive it waits.
    package var dependencies: [GlobalId] {
        switch self {
        case .habitCreate, .vacationRemove, .setting, .shieldRule, .creditAccount, .credit, .steps, .zoneChange, .evidence, .branchMoved: return []
        case .creditRule(_, _, let habit, _, _, _): return habit.map { [$0] } ?? []
        case .awardUnlock(_, let scopeHabit, _, _, _, let causeRecord, let causeHabit): return [scopeHabit, causeRecord, causeHabit].compactMap { $0 }
        case .habitField(let habit, _, _), .schedule(let habit, _, _), .settingsVersion(let habit, _): return [habit]
        case .entry(let habit, _, _, _, _, _, _, let undoes): return undoes.map { [habit, $0] } ?? [habit]
        case .vacationAdd(let habit, _, _): return habit.map { [$0] } ?? []
        case .proof(let habit, _, _, _, _, _, _, _): return [habit]
        case .verdict(let proof, _, let entry): return entry.map { [proof, $0] } ?? [proof]
        case .shieldVersion(let rule, _, _, let habits): return [rule] + habits
        case .emergencyUnlock(let rule, _, _, _, _): return [rule]
        case .timerEvent(_, let subject, _, _, _): return [subject]
        }
    }

    /// The same op with every global id it names passed through f (its own id is the
    /// log's, not the payload's).
    package func mappingIds(_ f: (GlobalId) -> GlobalId) -> SyncOp {
        switch self {
        case .habitCreate, .setting, .shieldRule, .creditAccount, .credit, .steps, .zoneChange, .evidence, .branchMoved: return self
        case .habitField(let habit, let field, let value): return .habitField(habit: f(habit), field: field, value: value)
        case .schedule(let habit, let fromDay, let schedule): return .schedule(habit: f(habit), fromDay: fromDay, schedule: schedule)
        case .settingsVersion(let habit, let version): return .settingsVersion(habit: f(habit), version: version)
        case .entry(let habit, let day, let kind, let value, let recordedAtMs, let source, let note, let undoes):
            // Only an undo names the entry it cancels (the payload carries no other).
            return .entry(
                habit: f(habit), day: day, kind: kind, value: value, recordedAtMs: recordedAtMs, source: source, note: note,
                undoes: kind == .undo ? undoes.map(f) : nil)
        case .vacationAdd(let habit, let first, let last): return .vacationAdd(habit: habit.map(f), first: first, last: last)
        case .vacationRemove(let vacation): return .vacationRemove(vacation: f(vacation))
        case .proof(let habit, let day, let sha256, let size, let mediaType, let takenAtMs, let receivedAtMs, let metadata):
            return .proof(
                habit: f(habit), day: day, sha256: sha256, size: size, mediaType: mediaType, takenAtMs: takenAtMs, receivedAtMs: receivedAtMs,
                metadata: metadata)
        case .verdict(let proof, let verdict, let entry): return .verdict(proof: f(proof), verdict: verdict, entry: entry.map(f))
        case .shieldVersion(let rule, let fromDay, let settings, let habits):
            return .shieldVersion(rule: f(rule), fromDay: fromDay, settings: settings, habits: habits.map(f))
        case .emergencyUnlock(let rule, let atMs, let day, let minutes, let reason):
            return .emergencyUnlock(rule: f(rule), atMs: atMs, day: day, minutes: minutes, reason: reason)
        case .timerEvent(let action, let subject, let day, let autoComplete, let atMs):
            return .timerEvent(action: action, subject: f(subject), day: day, autoComplete: autoComplete, atMs: atMs)
        case .creditRule(let account, let kind, let habit, let value, let fromDay, let recordedAtMs):
            return .creditRule(account: account, kind: kind, habit: habit.map(f), value: value, fromDay: fromDay, recordedAtMs: recordedAtMs)
        case .awardUnlock(let rule, let scopeHabit, let day, let atMs, let cause, let causeRecord, let causeHabit):
            return .awardUnlock(
                rule: rule, scopeHabit: scopeHabit.map(f), day: day, atMs: atMs, cause: cause, causeRecord: causeRecord.map(f),
                causeHabit: causeHabit.map(f))
        }
    }

    /// The records the op names, in the order its payload writes them.
    package var references: [GlobalId] {
        var ids: [GlobalId] = []
        _ = mappingIds { id in
            ids.append(id)
            return id
        }
        return ids
    }

    // MARK: Payload coding

    /// The payload; when any record it names carries its stamp, the stamps follow the
    /// fields, one per named record in order (a payload without them is one written
    /// before 1.1, and names its records by id alone).
    package func encodePayload() -> [UInt8] {
        var w = SyncWriter()
        writeFields(&w)
        let named = references
        if named.contains(where: { $0.stamp != 0 }) {
            for id in named { w.uvarint(UInt64(bitPattern: id.stamp)) }
        }
        return w.bytes
    }

    private func writeFields(_ w: inout SyncWriter) {
        switch self {
        case .habitCreate(let spec, let createdAtMs):
            w.text(spec.name)
            w.varint(Int64(spec.kind.rawValue))
            w.double(spec.target)
            w.varint(Int64(spec.direction.rawValue))
            w.optionalText(spec.group)
            w.optionalText(spec.unit)
            w.varint(Int64(spec.routine.rawValue))
            w.byte(spec.proofRequired ? 1 : 0)
            w.varint(Int64(spec.startDay))
            w.text(spec.schedule.description)
            w.varint(createdAtMs)
        case .habitField(let habit, let field, let value):
            Self.write(habit, &w)
            w.byte(field.rawValue)
            switch value {
            case .null: w.byte(0)
            case .int(let v): w.byte(1); w.varint(v)
            case .double(let v): w.byte(2); w.double(v)
            case .text(let v): w.byte(3); w.text(v)
            }
        case .schedule(let habit, let fromDay, let schedule):
            Self.write(habit, &w)
            w.varint(Int64(fromDay))
            w.text(schedule.description)
        case .entry(let habit, let day, let kind, let value, let recordedAtMs, let source, let note, let undoes):
            Self.write(habit, &w)
            w.varint(Int64(day))
            // Kind and source share a byte; the value is written only when it carries one.
            w.byte(UInt8(truncatingIfNeeded: kind.rawValue) | UInt8(truncatingIfNeeded: source.rawValue) << 4)
            if kind.carriesValue { w.double(value) }
            w.varint(recordedAtMs)
            w.optionalText(note)
            if kind == .undo, let undoes { Self.write(undoes, &w) }
        case .vacationAdd(let habit, let first, let last):
            if let habit { w.byte(1); Self.write(habit, &w) } else { w.byte(0) }
            w.varint(Int64(first))
            w.varint(Int64(last))
        case .vacationRemove(let vacation):
            Self.write(vacation, &w)
        case .setting(let key, let value):
            w.text(key)
            w.text(value)
        case .proof(let habit, let day, let sha256, let size, let mediaType, let takenAtMs, let receivedAtMs, let metadata):
            Self.write(habit, &w)
            w.varint(Int64(day))
            w.text(sha256)
            w.varint(size)
            w.text(mediaType)
            if let takenAtMs { w.byte(1); w.varint(takenAtMs) } else { w.byte(0) }
            w.varint(receivedAtMs)
            w.optionalText(metadata)
        case .verdict(let proof, let v, let entry):
            Self.write(proof, &w)
            w.byte(UInt8(truncatingIfNeeded: v.stage.rawValue))
            w.text(v.verifierId)
            w.text(v.verifierVersion)
            w.byte(UInt8(truncatingIfNeeded: v.outcome.rawValue))
            w.double(v.confidence)
            w.text(v.reasonCode)
            w.text(v.message)
            w.text(v.signals.joined(separator: ","))
            w.varint(v.durationUs)
            w.varint(v.atMs)
            w.optionalText(v.reviewer)
            if let entry { w.byte(1); Self.write(entry, &w) } else { w.byte(0) }
        case .shieldRule(let createdAtMs):
            w.varint(createdAtMs)
        case .shieldVersion(let rule, let fromDay, let settings, let habits):
            Self.write(rule, &w)
            w.varint(Int64(fromDay))
            guard let s = settings else { w.byte(0); break }
            w.byte(1)
            w.text(s.name)
            w.text(s.key)
            w.text(s.days.description)
            if let start = s.startMinute { w.byte(1); w.varint(Int64(start)) } else { w.byte(0) }
            if let end = s.endMinute { w.byte(1); w.varint(Int64(end)) } else { w.byte(0) }
            w.uvarint(UInt64(habits.count))
            for habit in habits { Self.write(habit, &w) }
            w.byte(UInt8(truncatingIfNeeded: s.lift.rawValue))
            w.byte((s.sessionLifts ? 1 : 0) | (s.cutoffLifts ? 2 : 0) | (s.excusedLifts ? 4 : 0) | (s.failClosed ? 8 : 0))
            w.byte(UInt8(truncatingIfNeeded: s.budgetPeriod.rawValue))
            w.varint(Int64(s.budgetCount))
        case .emergencyUnlock(let rule, let atMs, let day, let minutes, let reason):
            Self.write(rule, &w)
            w.varint(atMs)
            w.varint(Int64(day))
            w.varint(Int64(minutes))
            w.optionalText(reason)
        case .timerEvent(let action, let subject, let day, let autoComplete, let atMs):
            w.byte(UInt8(truncatingIfNeeded: action.rawValue))
            Self.write(subject, &w)
            if action == .start {
                w.varint(Int64(day))
                w.byte(autoComplete ? 1 : 0)
            }
            w.varint(atMs)
        case .creditAccount(let name, let createdAtMs):
            w.text(name)
            w.varint(createdAtMs)
        case .credit(let account, let kind, let minutes, let day, let atMs, let reason):
            w.text(account)
            w.byte(UInt8(truncatingIfNeeded: kind.rawValue))
            w.varint(minutes)
            w.varint(Int64(day))
            w.varint(atMs)
            w.optionalText(reason)
        case .steps(let account, let day, let steps, let atMs):
            w.text(account)
            w.varint(Int64(day))
            w.varint(steps)
            w.varint(atMs)
        case .creditRule(let account, let kind, let habit, let value, let fromDay, let recordedAtMs):
            w.text(account)
            w.byte(UInt8(truncatingIfNeeded: kind.rawValue))
            Self.write(optional: habit, &w)
            w.varint(value)
            w.varint(Int64(fromDay))
            w.varint(recordedAtMs)
        case .awardUnlock(let rule, let scopeHabit, let day, let atMs, let cause, let causeRecord, let causeHabit):
            w.text(rule.id)
            w.text(rule.title)
            w.text(rule.description)
            w.text(rule.icon)
            w.varint(Int64(rule.tier))
            w.varint(Int64(rule.metric.rawValue))
            w.byte(UInt8(truncatingIfNeeded: rule.scope.code))
            Self.write(optional: scopeHabit, &w)
            w.varint(rule.threshold)
            w.varint(Int64(day))
            w.varint(atMs)
            w.byte(UInt8(truncatingIfNeeded: cause.rawValue))
            Self.write(optional: causeRecord, &w)
            Self.write(optional: causeHabit, &w)
        case .zoneChange(let atMs, let from, let to):
            w.varint(atMs)
            w.text(from)
            w.text(to)
        case .evidence(let sha256, let bytes):
            w.text(sha256)
            w.uvarint(UInt64(bytes.count))
            w.raw(bytes)
        case .branchMoved(let to):
            w.raw(to)
        case .settingsVersion(let habit, let version):
            Self.write(habit, &w)
            w.varint(Int64(version.fromDay))
            w.text(version.schedule.description)
            w.double(version.target)
            w.varint(Int64(version.direction.rawValue))
            w.byte(version.proofRequired ? 1 : 0)
            w.optionalText(version.group)
            w.byte(version.archived ? 1 : 0)
        }
    }

    /// Decodes and validates a payload: every field in range, every text valid, nothing left over.
    package static func decode(kind rawKind: UInt8, payload: [UInt8]) throws(HabitError) -> SyncOp {
        guard let kind = Kind(rawValue: rawKind) else { throw .invalid("unknown op kind \(rawKind)") }
        var r = SyncReader(payload)
        var op: SyncOp
        switch kind {
        case .habitCreate:
            let name = try r.text()
            guard let habitKind = HabitKind(rawValue: try int32(&r, "kind")) else { throw .invalid("habit kind out of range") }
            let target = try r.double()
            guard let direction = Direction(rawValue: try int32(&r, "direction")) else { throw .invalid("direction out of range") }
            let group = try r.optionalText()
            let unit = try r.optionalText()
            guard let routine = RoutineTime(rawValue: try int32(&r, "routine")) else { throw .invalid("routine out of range") }
            let proof = try r.byte()
            guard proof <= 1 else { throw .invalid("proof_required is not 0 or 1") }
            let startDay = try day(&r)
            let schedule = try Schedule(parsing: try r.text())
            let createdAtMs = try r.varint()
            let spec = HabitSpec(
                name: name, kind: habitKind, target: target, direction: direction, group: group, unit: unit,
                routine: routine, proofRequired: proof == 1, startDay: startDay, schedule: schedule)
            // What a local create would accept, in its stored form.
            op = .habitCreate(spec: try spec.validated(), createdAtMs: createdAtMs)
        case .habitField:
            let habit = try read(&r)
            guard let field = HabitField(rawValue: try r.byte()) else { throw .invalid("unknown habit field") }
            let value: SyncValue
            switch try r.byte() {
            case 0: value = .null
            case 1: value = .int(try r.varint())
            case 2: value = .double(try r.double())
            case 3: value = .text(try r.text())
            case let tag: throw .invalid("unknown value tag \(tag)")
            }
            try validate(field, value)
            op = .habitField(habit: habit, field: field, value: value)
        case .schedule:
            let habit = try read(&r)
            op = .schedule(habit: habit, fromDay: try day(&r), schedule: try Schedule(parsing: try r.text()))
        case .entry:
            let habit = try read(&r)
            let d = try day(&r)
            let packed = try r.byte()
            guard let entryKind = EntryKind(rawValue: Int32(packed & 15)), let source = EntrySource(rawValue: Int32(packed >> 4)) else {
                throw .invalid("entry kind or source out of range")
            }
            let value = entryKind.carriesValue ? try r.double() : 0
            let recordedAtMs = try r.varint()
            let note = try r.optionalText()
            // What an append or an import would take: no more, no less. The op keeps the
            // bits it came with (a -0 from an older writer; the store keeps 0): a moved
            // fork branch is decoded and encoded again and must give the same bytes.
            _ = try EntryRules.checked(kind: entryKind, value: value, day: d, recordedAtMs: recordedAtMs, note: note)
            let undoes = entryKind == .undo ? try read(&r) : nil
            op = .entry(habit: habit, day: d, kind: entryKind, value: value, recordedAtMs: recordedAtMs, source: source, note: note, undoes: undoes)
        case .vacationAdd:
            let flag = try r.byte()
            guard flag <= 1 else { throw .invalid("vacation habit flag is not 0 or 1") }
            let habit = flag == 1 ? try read(&r) : nil
            let first = try day(&r), last = try day(&r)
            guard first <= last else { throw .invalid("the vacation ends before it starts") }
            op = .vacationAdd(habit: habit, first: first, last: last)
        case .vacationRemove:
            op = .vacationRemove(vacation: try read(&r))
        case .setting:
            let key = try r.text(limit: 64)
            let value = try r.text(limit: 256)
            try validateSetting(key, value)
            op = .setting(key: key, value: value)
        case .proof:
            let habit = try read(&r)
            let d = try day(&r)
            let sha = try r.text(limit: 64)
            guard sha.utf8.count == 64, sha.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
                throw .invalid("proof sha256 is not 64 lowercase hex digits")
            }
            let size = try r.varint()
            guard size >= 0 else { throw .invalid("proof size is negative") }
            let media = try r.text(limit: 100)
            let takenFlag = try r.byte()
            guard takenFlag <= 1 else { throw .invalid("proof taken-at flag is not 0 or 1") }
            let taken = takenFlag == 1 ? try r.varint() : nil
            let received = try r.varint()
            let metadata = try r.optionalText(limit: 16_384)
            op = .proof(habit: habit, day: d, sha256: sha, size: size, mediaType: media, takenAtMs: taken, receivedAtMs: received, metadata: metadata)
        case .verdict:
            let proof = try read(&r)
            guard let stage = Verdict.Stage(rawValue: Int32(try r.byte())) else { throw .invalid("verdict stage out of range") }
            let verifierId = try r.text(limit: 200), verifierVersion = try r.text(limit: 200)
            guard let outcome = Outcome(rawValue: Int32(try r.byte())) else { throw .invalid("verdict outcome out of range") }
            let confidence = try r.double()
            guard confidence.isFinite, (0...1).contains(confidence) else { throw .invalid("verdict confidence out of range") }
            var verdict = Verdict(
                stage: stage, verifierId: verifierId, verifierVersion: verifierVersion, outcome: outcome,
                confidence: confidence, reasonCode: try r.text(limit: 64), message: try r.text(limit: 2048))
            let signals = try r.text(limit: 4096)
            verdict.signals = signals.isEmpty ? [] : signals.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            verdict.durationUs = try r.varint()
            verdict.atMs = try r.varint()
            verdict.reviewer = try r.optionalText(limit: 200)
            let entryFlag = try r.byte()
            guard entryFlag <= 1 else { throw .invalid("verdict entry flag is not 0 or 1") }
            // Stored as the writing device stored it (lengths bounded above; no rule re-runs here).
            op = .verdict(proof: proof, verdict: verdict, entry: entryFlag == 1 ? try read(&r) : nil)
        case .shieldRule:
            op = .shieldRule(createdAtMs: try r.varint())
        case .shieldVersion:
            let rule = try read(&r)
            let fromDay = try day(&r)
            let flag = try r.byte()
            guard flag <= 1 else { throw .invalid("shield version flag is not 0 or 1") }
            if flag == 0 {
                op = .shieldVersion(rule: rule, fromDay: fromDay, settings: nil, habits: [])
                break
            }
            let name = try r.text(limit: 200), key = try r.text(limit: 500)
            let days = try Schedule(parsing: try r.text(limit: 4096))
            func minute() throws(HabitError) -> Int32? {
                let present = try r.byte()
                guard present <= 1 else { throw .invalid("shield minute flag is not 0 or 1") }
                return present == 1 ? try int32(&r, "shield minute") : nil
            }
            let start = try minute(), end = try minute()
            let count = try r.count(limit: 64, "shield habit count")
            var habits: [GlobalId] = []
            for _ in 0..<count { habits.append(try read(&r)) }
            guard Set(habits).count == habits.count else { throw .invalid("a shield rule lists a habit twice") }
            guard let lift = ShieldRule.Lift(rawValue: Int32(try r.byte())) else { throw .invalid("shield lift out of range") }
            let flags = try r.byte()
            guard flags < 16 else { throw .invalid("shield flags out of range") }
            guard let period = ShieldRule.BudgetPeriod(rawValue: Int32(try r.byte())) else { throw .invalid("shield budget period out of range") }
            let budget = try int32(&r, "shield budget")
            var settings = ShieldRule.Settings(
                name: name, key: key, days: days, startMinute: start, endMinute: end,
                habits: (0..<Int64(count)).map { $0 + 1 }, lift: lift, sessionLifts: flags & 1 != 0,
                cutoffLifts: flags & 2 != 0, excusedLifts: flags & 4 != 0, failClosed: flags & 8 != 0,
                budgetPeriod: period, budgetCount: budget)
            // What a local add or change would accept (the habits stand in by position).
            settings = try settings.validated()
            settings.habits = []
            op = .shieldVersion(rule: rule, fromDay: fromDay, settings: settings, habits: habits)
        case .emergencyUnlock:
            let rule = try read(&r)
            let atMs = try r.varint()
            let d = try day(&r)
            let minutes = try int32(&r, "emergency minutes")
            let reason = try r.optionalText(limit: 500)
            try EmergencyUnlock.validate(minutes: minutes, reason: reason)
            op = .emergencyUnlock(rule: rule, atMs: atMs, day: d, minutes: minutes, reason: reason)
        case .timerEvent:
            guard let action = TimerAction(rawValue: Int32(try r.byte())) else { throw .invalid("timer action out of range") }
            let subject = try read(&r)
            var d: Int32 = 0, autoComplete = false
            if action == .start {
                d = try day(&r)
                let flags = try r.byte()
                guard flags <= 1 else { throw .invalid("timer flags out of range") }
                autoComplete = flags == 1
            }
            op = .timerEvent(action: action, subject: subject, day: d, autoComplete: autoComplete, atMs: try r.varint())
        case .creditAccount:
            let name = try accountName(&r)
            op = .creditAccount(name: name, createdAtMs: try r.varint())
        case .credit:
            let account = try accountName(&r)
            guard let creditKind = CreditKind(rawValue: Int32(try r.byte())) else { throw .invalid("credit kind out of range") }
            let minutes = try r.varint()
            try CreditEntry.validateFact(kind: creditKind, minutes: minutes)
            let d = try day(&r)
            let atMs = try r.varint()
            let reason = try r.optionalText(limit: 500)
            try CreditLimits.reason(reason)
            op = .credit(account: account, kind: creditKind, minutes: minutes, day: d, atMs: atMs, reason: reason)
        case .steps:
            let account = try accountName(&r)
            let d = try day(&r)
            let steps = try r.varint()
            try CreditLimits.steps(steps)
            op = .steps(account: account, day: d, steps: steps, atMs: try r.varint())
        case .creditRule:
            let account = try accountName(&r)
            guard let ruleKind = CreditRule.Kind(rawValue: Int32(try r.byte())) else { throw .invalid("credit rule kind out of range") }
            let habit = try readOptional(&r, "credit rule habit")
            guard ruleKind == .habitMinutes || habit == nil else { throw .invalid("only a habit reward names a habit") }
            let value = try r.varint()
            // What a local rule would accept (the habit stands in by a placeholder id).
            try CreditRule.validate(kind: ruleKind, value: value, habitId: habit == nil ? nil : 1)
            op = .creditRule(account: account, kind: ruleKind, habit: habit, value: value, fromDay: try day(&r), recordedAtMs: try r.varint())
        case .awardUnlock:
            let id = try r.text(limit: 64), title = try r.text(limit: 200), description = try r.text(limit: 1000), icon = try r.text(limit: 100)
            let tier = try int32(&r, "award tier")
            guard let metric = AwardMetric(rawValue: try int32(&r, "award metric")) else { throw .invalid("award metric out of range") }
            let scopeCode = try r.byte()
            let scopeHabit = try readOptional(&r, "award habit")
            let scope: AwardScope
            switch (scopeCode, scopeHabit) {
            case (1, .some): scope = .habit(1)  // a placeholder: the habit travels as scopeHabit
            case (2, nil): scope = .anyHabit
            case (3, nil): scope = .allHabits
            default: throw .invalid("award scope and habit disagree")
            }
            let rule = AwardRule(
                id: id, title: title, description: description, icon: icon, tier: tier, metric: metric, scope: scope,
                threshold: try r.varint())
            try rule.validate()
            let d = try day(&r)
            let atMs = try r.varint()
            guard let cause = AwardUnlock.CauseKind(rawValue: Int32(try r.byte())) else { throw .invalid("award cause out of range") }
            let causeRecord = try readOptional(&r, "award cause")
            guard causeRecord == nil || [.habitEntry, .creditEntry, .habitCreated].contains(cause) else { throw .invalid("award cause names no record") }
            op = .awardUnlock(
                rule: rule, scopeHabit: scopeHabit, day: d, atMs: atMs, cause: cause, causeRecord: causeRecord,
                causeHabit: try readOptional(&r, "award cause habit"))
        case .zoneChange:
            let atMs = try r.varint()
            let from = try r.text(limit: 100), to = try r.text(limit: 100)
            // Names only here: whether this machine has the zones is the store's question.
            _ = try ZoneRules.classify(from)
            _ = try ZoneRules.classify(to)
            op = .zoneChange(atMs: atMs, from: from, to: to)
        case .evidence:
            let sha = try r.text(limit: 64)
            let count = try r.count(limit: Evidence.maxBytes, "evidence size")
            let bytes = try r.raw(count)
            guard !bytes.isEmpty, SHA256.hex(bytes) == sha else { throw .invalid("evidence does not hash to its sha256") }
            op = .evidence(sha256: sha, bytes: bytes)
        case .branchMoved:
            op = .branchMoved(to: try r.raw(GlobalId.replicaBytes))
        case .settingsVersion:
            let habit = try read(&r)
            let fromDay = try day(&r)
            let schedule = try Schedule(parsing: try r.text())
            let target = try r.double()
            try validate(.target, .double(target))
            guard let direction = Direction(rawValue: try int32(&r, "direction")) else { throw .invalid("direction out of range") }
            let proof = try r.byte(), group = try r.optionalText(), archived = try r.byte()
            guard proof <= 1, archived <= 1 else { throw .invalid("proof_required or archived is not 0 or 1") }
            try validate(.group, group.map(SyncValue.text) ?? .null)
            op = .settingsVersion(
                habit: habit,
                version: SettingsVersion(
                    fromDay: fromDay, schedule: schedule, target: target, direction: direction,
                    proofRequired: proof == 1, group: group, archived: archived == 1))
        }
        if !r.atEnd {
            var stamps: [Int64] = []
            for _ in op.references {
                let stamp = try r.uvarint()
                guard stamp <= UInt64(HybridClock.max) else { throw .invalid("a named record's clock stamp is out of range") }
                stamps.append(Int64(stamp))
            }
            var index = 0
            op = op.mappingIds { id in
                var stamped = id
                stamped.stamp = index < stamps.count ? stamps[index] : 0
                index += 1
                return stamped
            }
        }
        guard r.atEnd else { throw .invalid("\(r.remaining) bytes left over after the record") }
        return op
    }

    private static func write(_ id: GlobalId, _ w: inout SyncWriter) {
        w.raw(id.replica)
        w.uvarint(UInt64(bitPattern: id.seq))
    }

    private static func write(optional id: GlobalId?, _ w: inout SyncWriter) {
        if let id { w.byte(1); write(id, &w) } else { w.byte(0) }
    }

    private static func readOptional(_ r: inout SyncReader, _ what: String) throws(HabitError) -> GlobalId? {
        let flag = try r.byte()
        guard flag <= 1 else { throw .invalid("\(what) flag is not 0 or 1") }
        return flag == 1 ? try read(&r) : nil
    }

    package static func read(_ r: inout SyncReader) throws(HabitError) -> GlobalId {
        let replica = try r.raw(GlobalId.replicaBytes)
        let seq = try r.uvarint()
        guard seq >= 1, seq <= UInt64(Int64.max) else { throw .invalid("sequence number \(seq) out of range") }
        return GlobalId(replica: replica, seq: Int64(seq))
    }

    private static func accountName(_ r: inout SyncReader) throws(HabitError) -> String {
        let name = try r.text(limit: 200)
        try TextRules.validate(name, field: "account name", maxBytes: 200)
        return name
    }

    private static func int32(_ r: inout SyncReader, _ what: String) throws(HabitError) -> Int32 {
        guard let value = Int32(exactly: try r.varint()) else { throw .invalid("\(what) out of range") }
        return value
    }

    private static func day(_ r: inout SyncReader) throws(HabitError) -> Int32 {
        let value = try int32(&r, "day")
        guard CivilDate.isValid(value) else { throw .invalid("day \(value) is not a valid date") }
        return value
    }

    /// A synced setting's value as a local write could have stored it. A zone is
    /// checked as a name only: one this machine's tz database lacks is a valid record
    /// that waits (Store.materialize), never a reason to refuse a changeset.
    static func validateSetting(_ key: String, _ value: String) throws(HabitError) {
        switch key {
        case "timezone": _ = try ZoneRules.classify(value)
        case "day_start_minutes":
            guard let minutes = Int32(value) else { throw .invalid("day_start_minutes '\(value.prefix(40))' is not a number") }
            try DayClock.validateDayStart(minutes)
        case "week_start":
            guard let weekday = Int64(value) else { throw .invalid("week_start '\(value.prefix(40))' is not a number") }
            try DayClock.validateWeekStart(weekday)
        // The stored forms their setters write, no other spelling.
        case "streak_miss_allowance":
            guard let allowance = Int32(value), String(allowance) == value, (try? StreakPolicy.validate(missAllowance: allowance)) != nil else {
                throw .invalid("streak_miss_allowance '\(value.prefix(40))' is not 0...\(StreakPolicy.maxMissAllowance)")
            }
        case "streak_open_day":
            guard StreakPolicy.OpenDay(name: value)?.name == value else { throw .invalid("streak_open_day '\(value.prefix(40))' is not previous or zero") }
        case "streak_off_days":
            guard StreakPolicy.OffDays(name: value)?.name == value else { throw .invalid("streak_off_days '\(value.prefix(40))' is not skip or break") }
        case "routine_bounds":
            guard let bounds = RoutineBounds(text: value), (try? bounds.validated().text) == value else {
                throw .invalid("routine_bounds '\(value.prefix(40))' are not three ordered minutes of the day")
            }
        default: throw .invalid("setting '\(key.prefix(40))' does not sync")
        }
    }

    /// A field value as a local edit could have written it.
    static func validate(_ field: HabitField, _ value: SyncValue) throws(HabitError) {
        func int(_ range: ClosedRange<Int64>) throws(HabitError) {
            guard case .int(let v) = value, range.contains(v) else { throw .invalid("habit field \(field) out of range") }
        }
        switch field {
        case .name:
            guard case .text(let name) = value, try HabitName.normalized(name) == name else { throw .invalid("habit name is not valid") }
        case .target:
            guard case .double(let v) = value, v.isFinite, v >= 0, v <= HabitSpec.maxTarget else { throw .invalid("habit target out of range") }
        case .direction: try int(Int64(Direction.allCases.map(\.rawValue).min() ?? 0)...Int64(Direction.allCases.map(\.rawValue).max() ?? 0))
        case .group, .unit:
            switch value {
            case .null: break
            case .text(let text): try TextRules.validate(text, field: field == .group ? "group" : "unit", maxBytes: field == .group ? 200 : 32)
            default: throw .invalid("habit \(field) must be text or null")
            }
        case .routine: try int(Int64(RoutineTime.allCases.map(\.rawValue).min() ?? 0)...Int64(RoutineTime.allCases.map(\.rawValue).max() ?? 0))
        case .proofRequired: try int(0...1)
        case .startDay:
            guard case .int(let v) = value, let day = Int32(exactly: v), CivilDate.isValid(day) else { throw .invalid("start day out of range") }
        case .archivedDay:
            if value == .null { return }
            guard case .int(let v) = value, let day = Int32(exactly: v), CivilDate.isValid(day) else { throw .invalid("archived day out of range") }
        case .description, .question, .colour, .icon, .position:
            // HabitDisplay's own rules, and its stored form (no text is null, never "").
            guard let display = field.setting(value, in: HabitDisplay.none), try display.validated() == display else {
                throw .invalid("habit \(field) is not a valid value")
            }
        case .missAllowance, .openDay:
            guard field.setting(value, in: StreakPolicy.Override.none) != nil else { throw .invalid("habit \(field) is not a valid value") }
        }
    }
}
