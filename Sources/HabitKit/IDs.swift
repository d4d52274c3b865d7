/// The id the store gave a row of one kind (a habit, an entry, a reminder rule, ...):
/// the header's `int64_t` id, typed so that a habit's id cannot be passed where an
/// entry's is meant. `Kind` is only a tag (one of the `IDKind` enums); use the aliases
/// (HabitID, EntryID, ...). Written as its bare number: `description`, Codable and
/// JSON all give the header's number; an integer literal makes one (`HabitID(7)` or `7`).
public struct TypedID<Kind>: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByIntegerLiteral
{
    /// The header's number: positive for a stored row; never reused.
    public let rawValue: Int64

    /// The id with this number.
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// The id with this number.
    public init(_ rawValue: Int64) { self.rawValue = rawValue }

    /// The id with this number, written as a literal.
    public init(integerLiteral value: Int64) { rawValue = value }

    /// The id the header gives, nil where it writes 0 (no such row: "0 when none").
    init?(nonZero rawValue: Int64) {
        guard rawValue != 0 else { return nil }
        self.rawValue = rawValue
    }

    /// Decodes the bare number.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int64.self)
    }

    /// Encodes the bare number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The number, as the header and habitctl write it.
    public var description: String { String(rawValue) }

    /// Orders ids by number: the header's ids grow in the order rows were made.
    public static func < (lhs: TypedID, rhs: TypedID) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension Optional {
    /// The header's number of an optional id: 0 for nil ("0: none" or "0: all").
    func rawValueOrZero<Kind>() -> Int64 where Wrapped == TypedID<Kind> { self?.rawValue ?? 0 }
}

/// The tags of TypedID, one per kind of id the header has. Never instantiated.
public enum IDKind {
    /// hc_habit.id, every habit_id.
    public enum Habit {}
    /// hc_entry.id: an entry of a habit's ledger (hc_entry_append, hc_entry_undo).
    public enum Entry {}
    /// hc_vacation.id.
    public enum Vacation {}
    /// A credit account (hc_credit_account_create; HC_ACCOUNT_DEFAULT).
    public enum CreditAccount {}
    /// hc_credit_rule.id.
    public enum CreditRule {}
    /// hc_credit_entry.id: an entry of a credit account's ledger (spend, adjust).
    public enum CreditEntry {}
    /// A running unlock session of a credit account (hc_unlock_state.session_id).
    public enum CreditSession {}
    /// hc_event.id.
    public enum Event {}
    /// A submitted proof (hc_proof_result.proof_id).
    public enum Proof {}
    /// hc_verdict.id.
    public enum Verdict {}
    /// hc_reminder_rule.id.
    public enum ReminderRule {}
    /// hc_shield_rule.id.
    public enum ShieldRule {}
    /// An emergency unlock of a shield rule (hc_shield_emergency_unlock).
    public enum EmergencyUnlock {}
    /// A redeemed referral code (hc_referral_redeem).
    public enum Redemption {}
    /// A timer: its start's id (hc_timer_start).
    public enum Timer {}
}

/// A habit's id.
public typealias HabitID = TypedID<IDKind.Habit>
/// A habit ledger entry's id.
public typealias EntryID = TypedID<IDKind.Entry>
/// A vacation's id.
public typealias VacationID = TypedID<IDKind.Vacation>
/// A credit account's id.
public typealias CreditAccountID = TypedID<IDKind.CreditAccount>
/// A credit rule's id.
public typealias CreditRuleID = TypedID<IDKind.CreditRule>
/// A credit ledger entry's id.
public typealias CreditEntryID = TypedID<IDKind.CreditEntry>
/// An unlock session's id.
public typealias CreditSessionID = TypedID<IDKind.CreditSession>
/// An event's id (also the cursor of Store.events(after:)).
public typealias EventID = TypedID<IDKind.Event>
/// A proof's id.
public typealias ProofID = TypedID<IDKind.Proof>
/// A verdict's id.
public typealias VerdictID = TypedID<IDKind.Verdict>
/// A reminder rule's id.
public typealias ReminderRuleID = TypedID<IDKind.ReminderRule>
/// A shield rule's id.
public typealias ShieldRuleID = TypedID<IDKind.ShieldRule>
/// An emergency unlock's id.
public typealias EmergencyUnlockID = TypedID<IDKind.EmergencyUnlock>
/// A referral redemption's id.
public typealias RedemptionID = TypedID<IDKind.Redemption>
/// A timer's id.
public typealias TimerID = TypedID<IDKind.Timer>
