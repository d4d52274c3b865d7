/// A catalogue of awards: the built-in one, or one read from JSON (see docs/FORMATS.md):
///
///     {"format": "habitcore-awards", "version": 1, "rules": [
///       {"id": "streak-7", "title": "One week", "description": "...", "icon": "flame",
///        "tier": 1, "metric": "current_streak", "scope": "any", "threshold": 7},
///       {"id": "reading-30", ..., "scope": "habit", "habit": "Read", ...}]}
///
/// Every field is checked; an unknown field or metric is refused, never skipped,
/// and the error names the rule and the field.
package enum AwardCatalogue {
    package static let formatName = "habitcore-awards"
    package static let version: Int64 = 1
    package static let maxRules = 1000

    /// The catalogue every new store starts with.
    package static let builtIn: [AwardRule] = {
        var rules: [AwardRule] = []
        func ladder(
            _ prefix: String, _ metric: AwardMetric, _ scope: AwardScope, _ icon: String,
            _ steps: [(Int64, String, String)]
        ) {
            for (index, step) in steps.enumerated() {
                rules.append(
                    AwardRule(
                        id: "\(prefix)-\(step.0)", title: step.1, description: step.2, icon: icon,
                        tier: Int32(index + 1), metric: metric, scope: scope, threshold: step.0))
            }
        }
        ladder(
            "streak", .currentStreak, .anyHabit, "flame",
            [
                (3, "Warming up", "Keep a habit 3 times in a row."),
                (7, "One week", "Keep a habit 7 times in a row."),
                (14, "Two weeks", "Keep a habit 14 times in a row."),
                (30, "A month strong", "Keep a habit 30 times in a row."),
                (100, "Hundred", "Keep a habit 100 times in a row."),
                (365, "A whole year", "Keep a habit 365 times in a row."),
            ])
        ladder(
            "completions", .totalCompletions, .allHabits, "checkmark.circle",
            [
                (1, "First step", "Complete a habit for the first time."),
                (10, "Getting going", "Complete habits 10 times."),
                (50, "Fifty", "Complete habits 50 times."),
                (100, "Centurion", "Complete habits 100 times."),
                (500, "Five hundred", "Complete habits 500 times."),
                (1000, "A thousand", "Complete habits 1000 times."),
            ])
        ladder(
            "perfect-days", .perfectDays, .allHabits, "star",
            [
                (7, "Perfect week", "Do everything due on 7 days."),
                (30, "Perfect month", "Do everything due on 30 days."),
            ])
        ladder(
            "habits", .habitsCreated, .allHabits, "plus.circle",
            [
                (1, "A beginning", "Create your first habit."),
                (3, "Three focuses", "Create 3 habits."),
                (5, "Five focuses", "Create 5 habits."),
                (10, "Ten focuses", "Create 10 habits."),
            ])
        ladder(
            "referrals", .referralsRedeemed, .allHabits, "person.2",
            [
                (1, "Better together", "Redeem a referral."),
                (5, "Connector", "Redeem 5 referrals."),
                (10, "Ambassador", "Redeem 10 referrals."),
            ])
        ladder(
            "proofs", .verifiedProofs, .allHabits, "camera.viewfinder",
            [
                (7, "Proven week", "Have 7 proofs verified."),
                (30, "Proven month", "Have 30 proofs verified."),
            ])
        return rules
    }()

    /// Checks a whole catalogue: each rule, and ids unique.
    package static func validate(_ rules: [AwardRule]) throws(HabitError) {
        guard rules.count <= maxRules else { throw .invalid("a catalogue holds at most \(maxRules) rules, this one \(rules.count)") }
        var seen = Set<String>()
        for rule in rules {
            try rule.validate()
            guard seen.insert(rule.id).inserted else { throw .invalid("rule '\(rule.id)': field 'id': the id is used twice") }
        }
    }

    // MARK: JSON

    private static let ruleFields: Set<String> = ["id", "title", "description", "icon", "tier", "metric", "scope", "habit", "threshold"]

    /// Reads a catalogue. `habitId` finds a habit by name for rules scoped to one
    /// (a number is taken as an id and checked the same way).
    package static func decode(_ text: String, habitId: (HabitReference) throws(HabitError) -> Int64) throws(HabitError) -> [AwardRule] {
        let document = try JSON.parse(text)
        guard case .object(let members) = document else { throw .invalid("a catalogue is a JSON object with 'format' and 'rules'") }
        for (key, _) in members where !["format", "version", "rules"].contains(key) {
            throw .invalid("unknown field '\(key.prefix(64))' in the catalogue")
        }
        guard (try? document.string("format")) == formatName else { throw .invalid("field 'format' must be \"\(formatName)\"") }
        guard let version = try? document.int("version"), version == Self.version else {
            throw .invalid("field 'version' must be \(Self.version)")
        }
        let items = try document.array("rules")
        guard items.count <= maxRules else { throw .invalid("a catalogue holds at most \(maxRules) rules, this one \(items.count)") }
        var rules: [AwardRule] = []
        for (index, item) in items.enumerated() {
            rules.append(try rule(item, number: index + 1, habitId: habitId))
        }
        try validate(rules)
        return rules
    }

    /// How a catalogue names a habit.
    package enum HabitReference: Sendable {
        case id(Int64)
        case name(String)
    }

    private static func rule(_ item: JSON, number: Int, habitId: (HabitReference) throws(HabitError) -> Int64) throws(HabitError) -> AwardRule {
        guard case .object(let members) = item else { throw .invalid("rule \(number): must be an object") }
        let id = (try? item.string("id")) ?? ""
        let label = id.isEmpty ? "rule \(number)" : "rule '\(id.prefix(64))'"
        func fail(_ field: String, _ why: String) -> HabitError { .invalid("\(label): field '\(field)': \(why)") }
        for (key, _) in members where !ruleFields.contains(key) { throw fail(key.prefix(64).description, "unknown field") }
        func text(_ field: String, required: Bool) throws(HabitError) -> String {
            switch item[field] {
            case .string(let value)?: return value
            case nil where !required: return ""
            default: throw fail(field, required ? "a string is required" : "must be a string")
            }
        }
        func integer(_ field: String) throws(HabitError) -> Int64 {
            guard case .int(let value)? = item[field] else { throw fail(field, "an integer is required") }
            return value
        }
        guard !id.isEmpty else { throw fail("id", "a non-empty string is required") }
        let metricName = try text("metric", required: true)
        guard let metric = AwardMetric(name: metricName) else {
            throw fail("metric", "unknown metric '\(metricName.prefix(64))' (known: \(AwardMetric.allCases.map(\.name).joined(separator: ", ")))")
        }
        let scope: AwardScope
        switch try text("scope", required: false) {
        case "", "all": scope = .allHabits
        case "any": scope = .anyHabit
        case "habit":
            let reference: HabitReference
            switch item["habit"] {
            case .string(let name)?: reference = .name(name)
            case .int(let id)?: reference = .id(id)
            default: throw fail("habit", "scope 'habit' needs the habit's name or id")
            }
            do throws(HabitError) { scope = .habit(try habitId(reference)) } catch {
                throw HabitError(error.code, "\(label): field 'habit': \(error.message)")
            }
        case let other: throw fail("scope", "'\(other.prefix(64))' is not one of habit, any, all")
        }
        if scope.habitId == nil && item["habit"] != nil { throw fail("habit", "only with scope 'habit'") }
        let tier = item["tier"] == nil ? 1 : try integer("tier")
        guard let tier32 = Int32(exactly: tier) else { throw fail("tier", "\(tier) is outside 1...10") }
        let rule = AwardRule(
            id: id, title: try text("title", required: true), description: try text("description", required: false),
            icon: try text("icon", required: false), tier: tier32, metric: metric, scope: scope,
            threshold: try integer("threshold"))
        try rule.validate()
        return rule
    }

    package static func encode(_ rules: [AwardRule]) -> String {
        JSON.object([
            ("format", .string(formatName)), ("version", .int(version)),
            (
                "rules",
                .array(
                    rules.map { rule in
                        var members: [(String, JSON)] = [
                            ("id", .string(rule.id)), ("title", .string(rule.title)), ("description", .string(rule.description)),
                            ("icon", .string(rule.icon)), ("tier", .int(Int64(rule.tier))), ("metric", .string(rule.metric.name)),
                            ("scope", .string(rule.scope.name)),
                        ]
                        if let habitId = rule.scope.habitId { members.append(("habit", .int(habitId))) }
                        members.append(("threshold", .int(rule.threshold)))
                        return .object(members)
                    })
            ),
        ]).text + "\n"
    }
}
