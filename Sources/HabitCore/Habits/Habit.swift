package enum HabitKind: Int32, Sendable, CaseIterable {
    case checkmark = 1
    case counter = 2
    case duration = 3
    case measurement = 4
    /// A habit being quit: relapses are logged, clean days are kept (QuitRules).
    case quit = 5

    package var name: String {
        switch self {
        case .checkmark: return "checkmark"
        case .counter: return "counter"
        case .duration: return "duration"
        case .measurement: return "measurement"
        case .quit: return "quit"
        }
    }

    package init(name: String) throws(HabitError) {
        guard let kind = HabitKind.allCases.first(where: { $0.name == name }) else {
            throw .invalid("kind '\(name.prefix(40))' is not one of checkmark, counter, duration, measurement, quit")
        }
        self = kind
    }
}

package enum Direction: Int32, Sendable, CaseIterable {
    case atLeast = 1
    case atMost = 2

    package var name: String { self == .atLeast ? "at_least" : "at_most" }

    package init(name: String) throws(HabitError) {
        guard let value = Direction.allCases.first(where: { $0.name == name }) else {
            throw .invalid("direction '\(name.prefix(40))' is not at_least or at_most")
        }
        self = value
    }
}

package enum RoutineTime: Int32, Sendable, CaseIterable {
    case anytime = 0
    case morning = 1
    case day = 2
    case evening = 3

    package var name: String {
        switch self {
        case .anytime: return "anytime"
        case .morning: return "morning"
        case .day: return "day"
        case .evening: return "evening"
        }
    }

    package init(name: String) throws(HabitError) {
        guard let value = RoutineTime.allCases.first(where: { $0.name == name }) else {
            throw .invalid("routine '\(name.prefix(40))' is not one of anytime, morning, day, evening")
        }
        self = value
    }
}

/// Everything a person decides about a habit.
package struct HabitSpec: Equatable, Sendable {
    package var name: String
    package var kind: HabitKind
    package var target: Double
    package var direction: Direction
    package var group: String?
    package var unit: String?
    package var routine: RoutineTime
    package var proofRequired: Bool
    package var startDay: Int32
    package var schedule: Schedule
    /// What a frontend shows (description, question, colour, icon, position).
    package var display: HabitDisplay

    package static let maxTarget = 1e12

    package init(
        name: String, kind: HabitKind, target: Double, direction: Direction, group: String?, unit: String?,
        routine: RoutineTime, proofRequired: Bool, startDay: Int32, schedule: Schedule, display: HabitDisplay = .none
    ) {
        self.name = name
        self.kind = kind
        self.target = target
        self.direction = direction
        self.group = group
        self.unit = unit
        self.routine = routine
        self.proofRequired = proofRequired
        self.startDay = startDay
        self.schedule = schedule
        self.display = display
    }

    /// Checks every field and normalises the target (checkmarks: 1, measurements: 0;
    /// a quit habit's target is its saving per clean day, 0 or more, and it is at most).
    /// The name is stored as HabitName decides (NFC).
    package func validated() throws(HabitError) -> HabitSpec {
        var spec = self
        spec.name = try HabitName.normalized(name)
        if let group { try TextRules.validate(group, field: "group", maxBytes: 200) }
        if let unit { try TextRules.validate(unit, field: "unit", maxBytes: 32) }
        spec.display = try display.validated()
        return try spec.validatedRules()
    }

    /// The checks judging relies on (start day, target), without the text fields:
    /// what the pure calls need, with no per-call text work.
    package func validatedRules() throws(HabitError) -> HabitSpec {
        guard CivilDate.isValid(startDay) else { throw .invalid("start day \(startDay) is outside 0001-01-01...9999-12-31") }
        var spec = self
        switch kind {
        case .checkmark: spec.target = 1
        case .measurement: spec.target = 0
        case .counter, .duration:
            guard target.isFinite, target > 0, target <= HabitSpec.maxTarget else {
                throw .invalid("target must be a number above 0 and at most 1e12")
            }
        case .quit:
            try QuitRules.validate(schedule: schedule)
            guard target.isFinite, target >= 0, target <= HabitSpec.maxTarget else {
                throw .invalid("target (the saving per clean day) must be a number from 0 to 1e12")
            }
            spec.target = target == 0 ? 0 : target
            spec.direction = .atMost
        }
        return spec
    }
}

/// A stored habit: its spec, its stable id, and whether it is archived.
package struct Habit: Equatable, Sendable {
    package var id: Int64
    package var spec: HabitSpec
    package var archivedDay: Int32?
    package var createdAtMs: Int64
    /// Every version of the judging settings the habit has had, oldest first; the
    /// spec's judging fields are the last one's.
    package var versions: [SettingsVersion]

    package init(id: Int64, spec: HabitSpec, archivedDay: Int32?, createdAtMs: Int64, versions: [SettingsVersion]) {
        self.id = id
        self.spec = spec
        self.archivedDay = archivedDay
        self.createdAtMs = createdAtMs
        self.versions = versions
    }

    /// The spec a day is judged by (the version in force on it).
    package func spec(on day: Int32) -> HabitSpec { versions.spec(spec, on: day) }

    package var isArchived: Bool { archivedDay != nil }
}
