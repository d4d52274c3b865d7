/// The settings that decide how a habit's day is judged, in force from `fromDay` on.
/// A habit keeps every version it ever had, oldest first, and each day is judged by
/// the version in force on it: a change applies from a day and never rewrites the days
/// before it. The first version also governs the days before it.
///
/// Judging settings (versioned here): schedule, target, direction (at least / at most),
/// proof requirement, group membership, archived or not. Whole-history rules (the
/// streak policy's miss allowance and open day) are not versioned: a change to them
/// reads the whole history anew. Name, unit, routine and display fields judge nothing.
package struct SettingsVersion: Equatable, Sendable {
    package var fromDay: Int32
    package var schedule: Schedule
    package var target: Double
    package var direction: Direction
    package var proofRequired: Bool
    package var group: String?
    /// Archived from `fromDay` on: no day is due while a habit is archived.
    package var archived: Bool

    package init(
        fromDay: Int32, schedule: Schedule, target: Double = 1, direction: Direction = .atLeast,
        proofRequired: Bool = false, group: String? = nil, archived: Bool = false
    ) {
        self.fromDay = fromDay
        self.schedule = schedule
        self.target = target
        self.direction = direction
        self.proofRequired = proofRequired
        self.group = group
        self.archived = archived
    }

    /// The version of a spec's judging fields from a day on.
    package init(fromDay: Int32, spec: HabitSpec, archived: Bool = false) {
        self.init(
            fromDay: fromDay, schedule: spec.schedule, target: spec.target, direction: spec.direction,
            proofRequired: spec.proofRequired, group: spec.group, archived: archived)
    }

    /// A new habit's one version: its spec from its start day.
    package static func first(of spec: HabitSpec) -> SettingsVersion { SettingsVersion(fromDay: spec.startDay, spec: spec) }

    /// Whether two versions judge every day alike (the day they apply from aside).
    package func judgesAlike(_ other: SettingsVersion) -> Bool {
        var same = other
        same.fromDay = fromDay
        return same == self
    }
}

extension HabitSpec {
    /// This spec with a version's judging fields: how a day under that version is judged.
    package func judged(by version: SettingsVersion) -> HabitSpec {
        var spec = self
        spec.schedule = version.schedule
        spec.target = version.target
        spec.direction = version.direction
        spec.proofRequired = version.proofRequired
        spec.group = version.group
        return spec
    }
}

extension Array where Element == SettingsVersion {
    /// These versions, or for none (a habit read without them) the spec's first.
    package func orFirst(of spec: HabitSpec) -> [SettingsVersion] { isEmpty ? [.first(of: spec)] : self }

    /// The index of the version in force on a day (the first one also governs days
    /// before it); nil for no versions. Versions are sorted by fromDay.
    package func index(on day: Int32) -> Int? {
        guard !isEmpty else { return nil }
        // The last index whose fromDay <= day, at least 0.
        return Swift.max(partitionPoint { $0.fromDay > day } - 1, 0)
    }

    /// The version in force on a day, nil for no versions.
    package func version(on day: Int32) -> SettingsVersion? { index(on: day).map { self[$0] } }

    /// The spec a day is judged by: `spec` with the day's version (spec itself without versions).
    package func spec(_ spec: HabitSpec, on day: Int32) -> HabitSpec {
        guard let version = version(on: day) else { return spec }
        return spec.judged(by: version)
    }

    /// The days the version at `index` governs: from its fromDay (the first version:
    /// from the first day) to the day before the next version's.
    func days(ofVersionAt index: Int) -> ClosedRange<Int32> {
        let first = index == 0 ? Int32.min : self[index].fromDay
        let last = index + 1 < count ? self[index + 1].fromDay &- 1 : Int32.max
        return first...Swift.max(first, last)
    }

    /// The archived stretches before the last version (each [first, last]): days on which
    /// no day was due, read as excused. A habit archived now ends its history at
    /// `archivedDay` instead (the last version's stretch is not listed).
    package var archivedStretches: [ClosedRange<Int32>] {
        var result: [ClosedRange<Int32>] = []
        for index in indices.dropLast() where self[index].archived {
            let last = self[index + 1].fromDay &- 1
            if self[index].fromDay <= last { result.append(self[index].fromDay...last) }
        }
        return result
    }

    /// The first day of the archived run the versions end with, nil when the last
    /// version is not archived.
    package var finalArchiveDay: Int32? {
        guard let last, last.archived else { return nil }
        var index = count - 1
        while index > 0 && self[index - 1].archived { index -= 1 }
        return self[index].fromDay
    }

    /// Whether the versions differ in anything but the schedule (the judges that read
    /// target and direction per day look them up only then).
    package var variesBeyondSchedule: Bool {
        guard let first else { return false }
        return contains {
            $0.target != first.target || $0.direction != first.direction || $0.proofRequired != first.proofRequired
                || $0.group != first.group || $0.archived
        }
    }
}

/// The spec each day is judged by, for a walk over many days: a version's spec
/// is built once for the run of days it governs, not once a day (a fold of ten
/// years read the habit's strings 3,650 times).
package struct JudgedSpecs {
    private let base: HabitSpec
    private let versions: [SettingsVersion]
    /// The spec of the days in `governs` (nil: not built yet).
    package private(set) var current: HabitSpec
    private var governs: ClosedRange<Int32>?

    package init(_ spec: HabitSpec, versions: [SettingsVersion]) {
        base = spec
        self.versions = versions
        current = spec
        governs = versions.isEmpty ? Int32.min...Int32.max : nil
    }

    /// Makes `current` the spec of `day`.
    package mutating func move(to day: Int32) {
        if let governs, governs.contains(day) { return }
        guard let index = versions.index(on: day) else { return }
        current = base.judged(by: versions[index])
        governs = versions.days(ofVersionAt: index)
    }
}
