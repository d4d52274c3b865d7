import HabitCore

/// Habits and their settings versions, as rows.
extension Store {
    private static let habitColumns =
        "id, name, kind, target, direction, group_name, unit, routine, proof_required, start_day, archived_day, created_at_ms, "
        + "description, question, colour, icon, position"
    // Built once, not at every call.
    private static let habitByIdQuery = "SELECT \(habitColumns) FROM habits WHERE id = ?1"

    package func insertHabit(_ spec: HabitSpec, versions: [SettingsVersion], archivedDay: Int32?, createdAtMs: Int64) throws(HabitError) -> Int64 {
        let statement = try db.statement(
            """
            INSERT INTO habits(name, kind, target, direction, group_name, unit, routine, proof_required, start_day, archived_day, created_at_ms,
                               description, question, colour, icon, position)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
            """)
        bindSpec(statement, spec)
        statement.bind(10, archivedDay.map(Int64.init))
        statement.bind(11, createdAtMs)
        return try atomically { () throws(HabitError) -> Int64 in
            try mapNameConflict(spec.name) { () throws(HabitError) in try statement.run() }
            let id = db.lastInsertRowId
            let (global, _) = try logLocal(.habitCreate(spec: spec, createdAtMs: createdAtMs), creates: .habit, localId: id)
            try logDisplay(of: global, from: .none, to: spec.display)
            for version in versions { try setVersion(habitId: id, version) }
            if let archivedDay {
                try logRegister(
                    .habitField(habit: global, field: .archivedDay, value: .int(Int64(archivedDay))), target: Self.fieldTarget(global, .archivedDay))
            }
            return id
        }
    }

    package func updateHabit(id: Int64, spec: HabitSpec) throws(HabitError) {
        let statement = try db.statement(
            """
            UPDATE habits SET name = ?1, kind = ?2, target = ?3, direction = ?4, group_name = ?5, unit = ?6,
            routine = ?7, proof_required = ?8, start_day = ?9, description = ?12, question = ?13, colour = ?14, icon = ?15,
            position = ?16 WHERE id = ?10
            """)
        try atomically { () throws(HabitError) in
            guard let current = try habit(id: id) else { throw .notFound("no habit with id \(id)") }
            bindSpec(statement, spec)
            statement.bind(10, id)
            try mapNameConflict(spec.name) { () throws(HabitError) in try statement.run() }
            let global = try requireGlobalId(.habit, id)
            let old = current.spec
            var changed: [(HabitField, SyncValue)] = []
            if old.name != spec.name { changed.append((.name, .text(spec.name))) }
            if old.target != spec.target { changed.append((.target, .double(spec.target))) }
            if old.direction != spec.direction { changed.append((.direction, .int(Int64(spec.direction.rawValue)))) }
            if old.group != spec.group { changed.append((.group, spec.group.map(SyncValue.text) ?? .null)) }
            if old.unit != spec.unit { changed.append((.unit, spec.unit.map(SyncValue.text) ?? .null)) }
            if old.routine != spec.routine { changed.append((.routine, .int(Int64(spec.routine.rawValue)))) }
            if old.proofRequired != spec.proofRequired { changed.append((.proofRequired, .int(spec.proofRequired ? 1 : 0))) }
            if old.startDay != spec.startDay { changed.append((.startDay, .int(Int64(spec.startDay)))) }
            for (field, value) in changed {
                try logRegister(.habitField(habit: global, field: field, value: value), target: Self.fieldTarget(global, field))
            }
            try logDisplay(of: global, from: old.display, to: spec.display)
        }
    }

    package func setArchived(id: Int64, day: Int32?, name: String) throws(HabitError) {
        let statement = try db.statement("UPDATE habits SET archived_day = ?1 WHERE id = ?2")
        statement.bind(1, day.map(Int64.init))
        statement.bind(2, id)
        try atomically { () throws(HabitError) in
            try mapNameConflict(name) { () throws(HabitError) in try statement.run() }
            let global = try requireGlobalId(.habit, id)
            try logRegister(
                .habitField(habit: global, field: .archivedDay, value: day.map { .int(Int64($0)) } ?? .null),
                target: Self.fieldTarget(global, .archivedDay))
        }
    }

    /// Records the judging settings in force from version.fromDay on (replacing the
    /// version set for the same day), logged for sync as one register per habit and day.
    package func setVersion(habitId: Int64, _ version: SettingsVersion) throws(HabitError) {
        try atomically { () throws(HabitError) in
            try writeVersion(habitId: habitId, version)
            let global = try requireGlobalId(.habit, habitId)
            try logRegister(.settingsVersion(habit: global, version: version), target: Self.versionTarget(global, version.fromDay))
        }
    }

    func writeVersion(habitId: Int64, _ version: SettingsVersion) throws(HabitError) {
        let statement = try db.statement(
            """
            INSERT INTO habit_versions(habit_id, from_day, schedule, target, direction, proof_required, group_name, archived)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            ON CONFLICT(habit_id, from_day) DO UPDATE SET schedule = excluded.schedule, target = excluded.target,
            direction = excluded.direction, proof_required = excluded.proof_required, group_name = excluded.group_name,
            archived = excluded.archived
            """)
        statement.bind(1, habitId)
        statement.bind(2, Int64(version.fromDay))
        statement.bind(3, version.schedule.description)
        statement.bind(4, version.target)
        statement.bind(5, Int64(version.direction.rawValue))
        statement.bind(6, Int64(version.proofRequired ? 1 : 0))
        statement.bind(7, version.group)
        statement.bind(8, Int64(version.archived ? 1 : 0))
        try statement.run()
    }

    package func habit(id: Int64) throws(HabitError) -> Habit? {
        try withVersions(try habitRow(id: id))
    }

    private func habitRow(id: Int64) throws(HabitError) -> Habit? {
        let statement = try db.statement(text: Self.habitByIdQuery)
        statement.bind(1, id)
        return try statement.one(readHabitRow)
    }

    /// What folding a habit's entries into days reads of it (kind, target, direction,
    /// proof required, routine, start day, and the versions of target, direction and
    /// proof), for a caller that decides nothing by its schedule, text or display (a
    /// shield ask): name reads "", group, unit and the display nil, the schedule
    /// .daily. Whatever asks whether a day is due reads habit(id:). A cold reader's
    /// ask reads a few such rows, so it prepares and decodes no column it does not use.
    package func habitFoldSpec(id: Int64) throws(HabitError) -> (spec: HabitSpec, versions: [SettingsVersion])? {
        guard let spec = try habitFoldRow(id: id) else { return nil }
        return (spec, try versions(habitId: id))
    }

    private func habitFoldRow(id: Int64) throws(HabitError) -> HabitSpec? {
        let statement = try db.statement("SELECT kind, target, direction, routine, proof_required, start_day FROM habits WHERE id = ?1")
        statement.bind(1, id)
        return try statement.one { (s) throws(HabitError) -> HabitSpec in
            guard let kind = HabitKind(rawValue: Int32(clamping: s.int(0))),
                let direction = Direction(rawValue: Int32(clamping: s.int(2))),
                let routine = RoutineTime(rawValue: Int32(clamping: s.int(3))),
                let startDay = Int32(exactly: s.int(5))
            else { throw .corrupt("habit \(id): a stored field is out of range") }
            return HabitSpec(
                name: "", kind: kind, target: s.double(1), direction: direction, group: nil, unit: nil,
                routine: routine, proofRequired: s.int(4) != 0, startDay: startDay, schedule: .daily)
        }
    }

    package func activeHabit(named name: String) throws(HabitError) -> Habit? {
        let statement = try db.statement(text: "SELECT \(Store.habitColumns) FROM habits WHERE name = ?1 COLLATE NOCASE AND archived_day IS NULL")
        statement.bind(1, name)
        return try withVersions(try statement.one(readHabitRow))
    }

    package func habits(includeArchived: Bool) throws(HabitError) -> [Habit] {
        let filter = includeArchived ? "" : " WHERE archived_day IS NULL"
        let statement = try db.statement(text: "SELECT \(Store.habitColumns) FROM habits\(filter) ORDER BY id")
        var result: [Habit] = []
        // Versions come from a second statement, once the first is done.
        for habit in try statement.all(readHabitRow) {
            if let complete = try withVersions(habit) { result.append(complete) }
        }
        return result
    }

    /// A habit's versions of its judging settings, oldest first.
    package func versions(habitId: Int64) throws(HabitError) -> [SettingsVersion] {
        let statement = try db.statement(
            """
            SELECT from_day, schedule, target, direction, proof_required, group_name, archived FROM habit_versions
            WHERE habit_id = ?1 ORDER BY from_day
            """)
        statement.bind(1, habitId)
        return try statement.all { (row) throws(HabitError) -> SettingsVersion in
            guard let day = Int32(exactly: row.int(0)), let text = row.text(1),
                let direction = Direction(rawValue: Int32(clamping: row.int(3)))
            else { throw .corrupt("habit \(habitId): bad settings version row") }
            do throws(HabitError) {
                return SettingsVersion(
                    fromDay: day, schedule: try Schedule(parsing: text), target: row.double(2), direction: direction,
                    proofRequired: row.int(4) != 0, group: row.text(5), archived: row.int(6) != 0)
            } catch {
                throw .corrupt("habit \(habitId): stored schedule is invalid: \(error.message)")
            }
        }
    }

    func bindSpec(_ statement: Statement, _ spec: HabitSpec) {
        statement.bind(1, spec.name)
        statement.bind(2, Int64(spec.kind.rawValue))
        statement.bind(3, spec.target)
        statement.bind(4, Int64(spec.direction.rawValue))
        statement.bind(5, spec.group)
        statement.bind(6, spec.unit)
        statement.bind(7, Int64(spec.routine.rawValue))
        statement.bind(8, Int64(spec.proofRequired ? 1 : 0))
        statement.bind(9, Int64(spec.startDay))
        // 10 and 11 are the caller's; the display fields follow them.
        statement.bind(12, spec.display.description)
        statement.bind(13, spec.display.question)
        statement.bind(14, spec.display.colour)
        statement.bind(15, spec.display.icon)
        statement.bind(16, spec.display.position)
    }

    private func mapNameConflict(_ name: String, _ body: () throws(HabitError) -> Void) throws(HabitError) {
        do throws(HabitError) { try body() } catch  where error.code == .conflict {
            throw .conflict("an active habit is already named '\(name)'")
        }
    }

    /// The habit with its versions, the last one being the settings in force: its
    /// judging fields are the spec's (the row's own copies are what it was created with
    /// and last edited to; the versions decide).
    private func withVersions(_ row: Habit?) throws(HabitError) -> Habit? {
        guard var habit = row else { return nil }
        habit.versions = try versions(habitId: habit.id)
        if let current = habit.versions.last { habit.spec = habit.spec.judged(by: current) }
        return habit
    }

    /// A habit row without its versions (the caller reads those).
    private func readHabitRow(_ s: Statement) throws(HabitError) -> Habit {
        let id = s.int(0)
        guard let kind = HabitKind(rawValue: Int32(clamping: s.int(2))),
            let direction = Direction(rawValue: Int32(clamping: s.int(4))),
            let routine = RoutineTime(rawValue: Int32(clamping: s.int(7))),
            let startDay = Int32(exactly: s.int(9)), let name = s.text(1)
        else { throw .corrupt("habit \(id): a stored field is out of range") }
        let spec = HabitSpec(
            name: name, kind: kind, target: s.double(3), direction: direction, group: s.text(5), unit: s.text(6),
            routine: routine, proofRequired: s.int(8) != 0, startDay: startDay, schedule: .daily,
            display: HabitDisplay(
                description: s.text(12), question: s.text(13), colour: s.text(14), icon: s.text(15),
                position: s.int(16)))
        let archived = s.optionalInt(10).flatMap { Int32(exactly: $0) }
        return Habit(id: id, spec: spec, archivedDay: archived, createdAtMs: s.int(11), versions: [])
    }
}
