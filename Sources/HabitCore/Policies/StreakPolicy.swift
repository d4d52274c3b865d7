/// How a streak reads the occurrences judged for it: the apps agree on the
/// ledger, not on these rules, so each is a setting (per habit, with a store-wide
/// default that the global streaks follow).
///
/// Rules (stated in the header and the README too):
/// - Miss allowance N (0 by default): a run survives up to N missed occurrences
///   in a row; they are counted (`forgiven`) and never add to its length. N + 1
///   misses in a row end it. N = 1 is Numu's "never miss twice".
/// - Open day: the occurrence holding as_of, not yet kept, either leaves the
///   streak as it was (`previous`, the default: today never breaks a streak) or
///   counts as a miss (`zero`): with no allowance the current streak shows 0
///   until it is kept; with allowance 1 it is the one miss forgiven.
/// - Off days (global streaks only): a day on which nothing is due is skipped (the
///   default) or breaks the perfect-day streak like a missed day (MorningProof).
///   A habit's own streak never judges the days its schedule leaves free.
package struct StreakPolicy: Equatable, Sendable {
    package enum OpenDay: Int32, Sendable, CaseIterable {
        case previous = 1
        case zero = 2

        package var name: String { self == .previous ? "previous" : "zero" }

        package init?(name: String) {
            switch name.lowercased() {
            case "previous": self = .previous
            case "zero", "0": self = .zero
            default: return nil
            }
        }
    }

    package enum OffDays: Int32, Sendable, CaseIterable {
        case skip = 1
        case breaks = 2

        package var name: String { self == .skip ? "skip" : "break" }

        package init?(name: String) {
            switch name.lowercased() {
            case "skip": self = .skip
            case "break": self = .breaks
            default: return nil
            }
        }
    }

    /// The most misses in a row a streak may forgive: a month of days.
    package static let maxMissAllowance: Int32 = 31

    package var missAllowance: Int32
    package var openDay: OpenDay
    package var offDays: OffDays

    /// A habit's own fields: nil follows the store's. (Off days are the store's only.)
    package struct Override: Equatable, Sendable {
        package var missAllowance: Int32?
        package var openDay: OpenDay?

        package init(missAllowance: Int32?, openDay: OpenDay?) {
            self.missAllowance = missAllowance
            self.openDay = openDay
        }

        package static let none = Override(missAllowance: nil, openDay: nil)

        /// The policy a habit follows: its own fields over the store's.
        package func over(_ base: StreakPolicy) -> StreakPolicy {
            StreakPolicy(missAllowance: missAllowance ?? base.missAllowance, openDay: openDay ?? base.openDay, offDays: base.offDays)
        }
    }

    /// Today's behaviour, and that of every store made before policies existed.
    package static let standard = StreakPolicy(missAllowance: 0, openDay: .previous, offDays: .skip)

    package init(missAllowance: Int32, openDay: OpenDay, offDays: OffDays) {
        self.missAllowance = missAllowance
        self.openDay = openDay
        self.offDays = offDays
    }

    package static func validate(missAllowance: Int32) throws(HabitError) {
        guard (0...maxMissAllowance).contains(missAllowance) else {
            throw .invalid("miss allowance \(missAllowance) is outside 0...\(maxMissAllowance)")
        }
    }

    // MARK: The rules, one small function each

    /// What an occurrence counts as for the streak: an open one is neutral or,
    /// under open day `zero`, a miss.
    @inline(__always)
    package func counted(_ verdict: Occurrence.Verdict) -> Occurrence.Verdict {
        verdict == .open && openDay == .zero ? .missed : verdict
    }

    /// Whether a run survives this many missed occurrences in a row.
    @inline(__always)
    package func survives(missesInARow: Int32) -> Bool {
        missesInARow <= missAllowance
    }

    /// A day with nothing due, for a global streak: nil when skipped, else a miss
    /// (open while the day is not over).
    package func offDay(_ day: Int32, asOf: Int32) -> Occurrence? {
        guard offDays == .breaks else { return nil }
        return Occurrence(first: day, last: day, verdict: day >= asOf ? .open : .missed, excusedDays: 0, doneDays: 0, required: 0)
    }
}
