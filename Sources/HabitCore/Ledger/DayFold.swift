/// The state of one habit on one day.
package struct DayState: Equatable, Sendable {
    package var day: Int32
    package var value: Double
    package var done: Bool
    package var skipped: Bool
    /// Standing entries: not undo entries and not cancelled by one.
    package var entryCount: Int

    package init(day: Int32, value: Double, done: Bool, skipped: Bool, entryCount: Int) {
        self.day = day
        self.value = value
        self.done = done
        self.skipped = skipped
        self.entryCount = entryCount
    }
}

/// Folds a day's entries into its state. The ledger is never changed; this is
/// the only place that decides what the entries of a day add up to.
package enum DayFold {
    /// The ids cancelled by undo entries among `entries`.
    package static func cancelledIds<S: Sequence>(in entries: S) -> Set<Int64> where S.Element == Entry {
        var cancelled = Set<Int64>()
        for entry in entries where entry.kind == .undo {
            if let target = entry.undoes { cancelled.insert(target) }
        }
        return cancelled
    }

    /// Folds the entries of one day (in append order). Entries of other days are ignored.
    /// - amounts add up; a measurement's value is its latest reading;
    /// - totals: each source's highest report counts, and sources add up;
    /// - done: checked, or the target reached (at least) or kept (at most), or a reading taken;
    /// - skipped: a skip entry and not done;
    /// - a quit habit: the value counts its relapses, and a day is done (clean) with none.
    package static func fold(_ entries: [Entry], day: Int32, habit: HabitSpec, cancelled: Set<Int64>) -> DayState {
        fold(entries[...], day: day, habit: habit, cancelled: cancelled)
    }

    package static func fold(_ entries: ArraySlice<Entry>, day: Int32, habit: HabitSpec, cancelled: Set<Int64>) -> DayState {
        var amountSum = 0.0
        var highestTotal: [EntrySource: Double] = [:]
        var latestReading: Double?
        var checked = false
        var skip = false
        var relapses = 0
        var count = 0
        for entry in entries where entry.day == day && entry.kind != .undo && (cancelled.isEmpty || !cancelled.contains(entry.id)) {
            count += 1
            switch entry.kind {
            case .done: checked = true
            case .skip: skip = true
            case .amount:
                amountSum += entry.value
                latestReading = entry.value
            case .total:
                highestTotal[entry.source] = max(highestTotal[entry.source] ?? 0, entry.value)
                latestReading = entry.value
            case .relapse: relapses += 1
            case .undo: break
            }
        }
        let value: Double
        let done: Bool
        switch habit.kind {
        case .checkmark:
            value = checked ? 1 : 0
            done = checked
        case .counter, .duration:
            value = amountSum + highestTotal.values.reduce(0, +)
            done = checked || (habit.direction == .atLeast ? value >= habit.target : value <= habit.target)
        case .measurement:
            value = latestReading ?? 0
            done = latestReading != nil
        case .quit:
            value = Double(relapses)
            done = relapses == 0
        }
        return DayState(day: day, value: value, done: done, skipped: skip && !done, entryCount: count)
    }

    /// Day states for every day of from...to, from entries sorted by append order;
    /// each day judged by the version in force on it (`versions` empty: by `habit`).
    package static func states(_ entries: [Entry], from: Int32, to: Int32, habit: HabitSpec, versions: [SettingsVersion] = []) -> [DayState] {
        guard from <= to else { return [] }
        let cancelled = cancelledIds(in: entries)
        var byDay: [Int32: [Entry]] = [:]
        for entry in entries where entry.day >= from && entry.day <= to { byDay[entry.day, default: []].append(entry) }
        var result: [DayState] = []
        result.reserveCapacity(Int(to) - Int(from) + 1)
        var specs = JudgedSpecs(habit, versions: versions)
        var day = from
        while true {
            specs.move(to: day)
            result.append(fold(byDay[day] ?? [], day: day, habit: specs.current, cancelled: cancelled))
            if day == to { break }
            day += 1
        }
        return result
    }

    /// States of the days that have entries only, from entries sorted by day and,
    /// within a day, by append order (as the store's fold index gives them): the
    /// same states as `sparseStates`, without grouping by day.
    package static func sortedStates(_ entries: [Entry], habit: HabitSpec, versions: [SettingsVersion] = []) -> [DayState] {
        let cancelled = cancelledIds(in: entries)
        var result: [DayState] = []
        var specs = JudgedSpecs(habit, versions: versions)
        var first = entries.startIndex
        while first < entries.endIndex {
            let day = entries[first].day
            var end = first + 1
            while end < entries.endIndex && entries[end].day == day { end += 1 }
            specs.move(to: day)
            result.append(fold(entries[first..<end], day: day, habit: specs.current, cancelled: cancelled))
            first = end
        }
        return result
    }

    /// States of the days that have entries only, for long histories.
    package static func sparseStates(_ entries: [Entry], habit: HabitSpec, versions: [SettingsVersion] = []) -> [DayState] {
        let cancelled = cancelledIds(in: entries)
        var byDay: [Int32: [Entry]] = [:]
        for entry in entries { byDay[entry.day, default: []].append(entry) }
        var specs = JudgedSpecs(habit, versions: versions)
        return byDay.keys.sorted().map { (day) in
            specs.move(to: day)
            return fold(byDay[day] ?? [], day: day, habit: specs.current, cancelled: cancelled)
        }
    }
}
