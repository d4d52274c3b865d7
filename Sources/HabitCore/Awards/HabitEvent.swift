/// Something worth telling the person, recorded once in the store and handed to
/// each reader that acknowledges it exactly once.
package struct HabitEvent: Equatable, Sendable {
    /// The raw values are the HC_EVENT_* constants.
    package enum Kind: Int32, Sendable, CaseIterable {
        case awardUnlocked = 1
        case streakMilestone = 2
        case targetReached = 3
        case proofVerdict = 4

        package var name: String {
            switch self {
            case .awardUnlocked: return "award_unlocked"
            case .streakMilestone: return "streak_milestone"
            case .targetReached: return "target_reached"
            case .proofVerdict: return "proof_verdict"
            }
        }
    }

    package var id: Int64
    package var kind: Kind
    /// The day it happened on (the crossing day, the habit's day).
    package var day: Int32
    /// When what caused it was recorded (UTC ms).
    package var atMs: Int64
    package var habitId: Int64?
    package var entryId: Int64?
    package var awardId: String?
    /// The milestone's length, the award's threshold, the day's value, or the verdict's HC_OUTCOME_*.
    package var value: Double
    package var acknowledged: Bool

    package init(
        id: Int64, kind: Kind, day: Int32, atMs: Int64, habitId: Int64?, entryId: Int64?, awardId: String?, value: Double,
        acknowledged: Bool
    ) {
        self.id = id
        self.kind = kind
        self.day = day
        self.atMs = atMs
        self.habitId = habitId
        self.entryId = entryId
        self.awardId = awardId
        self.value = value
        self.acknowledged = acknowledged
    }
}
