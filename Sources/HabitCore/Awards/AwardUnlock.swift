/// An award as unlocked: the rule as it was then, the day its threshold was
/// crossed, and the row that crossed it. Recorded once; never changed.
package struct AwardUnlock: Equatable, Sendable {
    /// What crossed the threshold. The raw values are the HC_AWARD_CAUSE_* constants.
    package enum CauseKind: Int32, Sendable {
        case none = 0
        case habitEntry = 1
        case creditEntry = 2
        case habitCreated = 3
        case referral = 4
    }

    package var id: Int64
    package var rule: AwardRule
    package var day: Int32
    package var atMs: Int64
    package var causeKind: CauseKind
    package var causeId: Int64?
    /// The habit whose history crossed it, when one did.
    package var causeHabitId: Int64?

    package init(id: Int64, rule: AwardRule, day: Int32, atMs: Int64, causeKind: CauseKind, causeId: Int64?, causeHabitId: Int64?) {
        self.id = id
        self.rule = rule
        self.day = day
        self.atMs = atMs
        self.causeKind = causeKind
        self.causeId = causeId
        self.causeHabitId = causeHabitId
    }
}
