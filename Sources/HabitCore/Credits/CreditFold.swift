/// An account's balance is the fold of its entries; nothing is ever updated.
///
/// Rules (stated in the header and the README too):
/// - Days are folded in order with a running balance: each day adds its entries
///   (earn +, spend -, adjust ±, expire -, refund +).
/// - Under the end-of-day policy, a positive balance left at the end of a day
///   that is over expires. A negative balance (a reversed credit that was already
///   spent) is a debt: it never expires and is paid back by later earnings.
/// - Expiry is part of the fold whether or not its `expire` entry has been
///   written yet; the engine writes those entries on the account's next write,
///   so that the ledger sums to the balance. The fold computes expiry from every
///   other entry and never reads the written ones: they record what it expired.
///   So a written expiry that turned out wrong (a spend of that day arriving from
///   another device later, a day that came back when the time zone moved west)
///   never changes a balance; sync corrects the record (CreditDerivation).
/// - Today is not over: nothing of today expires.
package struct CreditDay: Equatable, Sendable {
    package var day: Int32
    /// The balance the day started with.
    package var carriedIn: Int64 = 0
    package var earned: Int64 = 0
    /// Spent minutes, as a positive number.
    package var spent: Int64 = 0
    package var adjusted: Int64 = 0
    /// Minutes given back by unlock sessions ended early.
    package var refunded: Int64 = 0
    /// Expired minutes (written and pending), as a positive number.
    package var expired: Int64 = 0
    /// The balance at the end of the day, or now for today.
    package var available: Int64 = 0
    /// The highest step total reported for the day.
    package var steps: Int64 = 0

    package init(day: Int32) { self.day = day }
}

package enum CreditFold {
    /// The folded days up to `through` (each day with entries or a policy change,
    /// and `through` itself), in order; `today` decides which days are over.
    /// Sums are checked: an overflow is reported as a corrupt ledger.
    package static func days(
        _ entries: [CreditEntry], rules: CreditRules, through: Int32, today: Int32,
        steps: [Int32: Int64] = [:]
    ) throws(HabitError) -> [CreditDay] {
        var byDay: [Int32: [CreditEntry]] = [:]
        for entry in entries where entry.day <= through && entry.kind != .expire { byDay[entry.day, default: []].append(entry) }
        var eventDays = Set(byDay.keys)
        for day in rules.expiryChangeDays where day <= through { eventDays.insert(day) }
        eventDays.insert(through)
        var result: [CreditDay] = []
        var balance: Int64 = 0
        for day in eventDays.sorted() {
            var summary = CreditDay(day: day)
            summary.carriedIn = balance
            summary.steps = steps[day] ?? 0
            for entry in byDay[day] ?? [] {
                balance = try add(balance, entry.minutes)
                switch entry.kind {
                case .earn: summary.earned = try add(summary.earned, entry.minutes)
                case .spend: summary.spent = try add(summary.spent, -entry.minutes)
                case .adjust where entry.isEarning: summary.earned = try add(summary.earned, entry.minutes)
                case .adjust: summary.adjusted = try add(summary.adjusted, entry.minutes)
                case .expire: break  // not folded (above)
                case .refund: summary.refunded = try add(summary.refunded, entry.minutes)
                }
            }
            if day < today, rules.expiry(on: day) == .endOfDay, balance > 0 {
                summary.expired = try add(summary.expired, balance)
                balance = 0
            }
            summary.available = balance
            result.append(summary)
        }
        return result
    }

    /// The balance as of `day` (today: what can be spent now).
    package static func available(_ entries: [CreditEntry], rules: CreditRules, on day: Int32, today: Int32) throws(HabitError) -> Int64 {
        try days(entries, rules: rules, through: day, today: today).last?.available ?? 0
    }

    /// Expiries the fold applied to the folded `days` that have no `expire` entry
    /// yet: (day, minutes > 0). Today's own summary never expires anything.
    package static func unwrittenExpiries(in days: [CreditDay], entries: [CreditEntry]) throws(HabitError) -> [(day: Int32, minutes: Int64)] {
        var written: [Int32: Int64] = [:]
        for entry in entries where entry.kind == .expire { written[entry.day] = try add(written[entry.day] ?? 0, -entry.minutes) }
        return days.compactMap { summary in
            let unwritten = summary.expired - (written[summary.day] ?? 0)
            return unwritten > 0 ? (summary.day, unwritten) : nil
        }
    }

    static func add(_ a: Int64, _ b: Int64) throws(HabitError) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        guard !overflow else { throw .corrupt("the credit ledger's sums overflow") }
        return sum
    }
}

extension CreditDerivation {
    /// What a habit's day owes its completion credits now, against what it holds
    /// (every `habitEntry` entry of the day, earnings and corrections): nil when they
    /// agree; else an earn of the reward (nothing held yet), or an adjustment by the
    /// difference (an undo takes the reward back; a changed reward is recounted).
    package static func habitReward(owed reward: Int64, done: Bool, held: Int64) -> (kind: CreditKind, minutes: Int64)? {
        let owed = done ? max(reward, 0) : 0
        let (difference, overflow) = owed.subtractingReportingOverflow(held)
        guard !overflow, difference != 0 else { return nil }
        return held == 0 && difference > 0 ? (.earn, difference) : (.adjust, difference)
    }
}

/// What a replica writes after facts arrived from another device, so that its
/// ledger is the one a store that had received every fact directly would hold.
/// Pure: the same facts and rules give the same corrections everywhere.
package enum CreditDerivation {
    /// Step earnings owed: per reported day, the minutes the day's highest total
    /// earns under the day's rules, less what the day's step entries already hold.
    /// Positive: an earning to write; negative: a step rate raised for the day after
    /// it earned (a correction, so every replica holds what the final rules give).
    package static func stepCorrections(totals: [Int32: Int64], entries: [CreditEntry], rules: CreditRules) throws(HabitError) -> [(
        day: Int32, minutes: Int64, steps: Int64
    )] {
        var held: [Int32: Int64] = [:]
        for entry in entries where entry.cause == .steps { held[entry.day] = try CreditFold.add(held[entry.day] ?? 0, entry.minutes) }
        var result: [(day: Int32, minutes: Int64, steps: Int64)] = []
        for day in totals.keys.sorted() {
            guard let steps = totals[day] else { continue }
            let (due, overflow) = rules.minutes(forSteps: steps, on: day).subtractingReportingOverflow(held[day] ?? 0)
            guard !overflow else { throw .corrupt("the credit ledger's sums overflow") }
            if due != 0 { result.append((day, due, steps)) }
        }
        return result
    }

    /// Expiry corrections: the fold (which never reads written expiries) gives
    /// each day's true expiry; the written `expire` entries of a day must sum to it.
    /// Returns, per day that differs, the minutes of the `expire` entry to add
    /// (negative: more expires; positive: an expiry written before a spend of that
    /// day arrived is given back). After them the ledger sums to the balance again
    /// and the fold over all entries equals the fold over the facts and earnings.
    package static func expiryCorrections(_ entries: [CreditEntry], rules: CreditRules, today: Int32) throws(HabitError) -> [(day: Int32, minutes: Int64)] {
        let days = try CreditFold.days(entries, rules: rules, through: today, today: today)
        var due: [Int32: Int64] = [:]
        for summary in days where summary.expired != 0 { due[summary.day] = summary.expired }
        var written: [Int32: Int64] = [:]
        for entry in entries where entry.kind == .expire { written[entry.day] = try CreditFold.add(written[entry.day] ?? 0, -entry.minutes) }
        var result: [(day: Int32, minutes: Int64)] = []
        for day in Set(due.keys).union(written.keys).sorted() {
            let (difference, overflow) = (due[day] ?? 0).subtractingReportingOverflow(written[day] ?? 0)
            guard !overflow else { throw .corrupt("the credit ledger's sums overflow") }
            if difference != 0 { result.append((day, -difference)) }
        }
        return result
    }
}
