import CHabitCore
import HabitCore
import HabitEngine
import HabitPlatform

// Habits: hc_habit_options in, hc_habit out.

enum CHabit {
    static func kind(_ value: Int32) throws(HabitError) -> HabitKind {
        guard let kind = HabitKind(rawValue: value) else { throw .invalid("kind \(value) is not an HC_KIND_* constant") }
        return kind
    }

    static func direction(_ value: Int32) throws(HabitError) -> Direction {
        guard let direction = Direction(rawValue: value) else { throw .invalid("direction \(value) is not an HC_DIRECTION_* constant") }
        return direction
    }

    static func routine(_ value: Int32) throws(HabitError) -> RoutineTime {
        guard let routine = RoutineTime(rawValue: value) else { throw .invalid("routine \(value) is not an HC_ROUTINE_* constant") }
        return routine
    }

    static func flag(_ value: Int32, _ field: String) throws(HabitError) -> Bool {
        guard value == 0 || value == 1 else { throw .invalid("\(field) must be 0 or 1, not \(value)") }
        return value == 1
    }

    static func schedule(_ pointer: UnsafePointer<CChar>?) throws(HabitError) -> Schedule {
        guard let text = try Convert.optionalString(pointer, "schedule") else { return .daily }
        return try Schedule(parsing: text)
    }

    /// hc_habit_options' size in 1.0, before the display fields were appended.
    static let firstOptionsSize = MemoryLayout<hc_habit_options>.offset(of: \hc_habit_options.description) ?? 0

    /// The caller's options, and whether its struct_size has the display fields
    /// (a 1.0 caller's reads as none of them).
    static func options(_ pointer: UnsafePointer<hc_habit_options>?) throws(HabitError) -> (hc_habit_options, display: Bool) {
        let options = try Convert.grownOptions(pointer, "options", earlierSizes: [firstOptionsSize])
        return (options, options.struct_size == UInt32(MemoryLayout<hc_habit_options>.size))
    }

    /// A new habit's spec and start day (nil: today) from the caller's options.
    static func spec(_ o: hc_habit_options) throws(HabitError) -> (HabitSpec, Int32?) {
        let display = HabitDisplay(
            description: try Convert.optionalString(o.description, "description"), question: try Convert.optionalString(o.question, "question"),
            colour: try Convert.optionalString(o.colour, "colour"), icon: try Convert.optionalString(o.icon, "icon"), position: o.position)
        let spec = HabitSpec(
            name: try Convert.string(o.name, "name"), kind: try kind(o.kind), target: o.target,
            direction: try direction(o.direction), group: try Convert.optionalString(o.group_name, "group_name"),
            unit: try Convert.optionalString(o.unit, "unit"), routine: try routine(o.routine),
            proofRequired: try flag(o.proof_required, "proof_required"), startDay: 0, schedule: try schedule(o.schedule),
            display: display)
        return (spec, try Convert.day(o.start_day, "start_day"))
    }

    static let displayFields: UInt32 =
        HC_HABIT_FIELD_DESCRIPTION | HC_HABIT_FIELD_QUESTION | HC_HABIT_FIELD_COLOUR | HC_HABIT_FIELD_ICON | HC_HABIT_FIELD_POSITION

    /// The changes named by the HC_HABIT_FIELD_* bits.
    static func changes(
        _ o: hc_habit_options, display: Bool, fields: UInt32,
        today: () throws(HabitError) -> Int32
    ) throws(HabitError) -> Engine.HabitChanges {
        let known: UInt32 =
            HC_HABIT_FIELD_NAME | HC_HABIT_FIELD_TARGET | HC_HABIT_FIELD_GROUP | HC_HABIT_FIELD_UNIT | HC_HABIT_FIELD_ROUTINE | HC_HABIT_FIELD_PROOF
            | HC_HABIT_FIELD_SCHEDULE | HC_HABIT_FIELD_START_DAY | displayFields
        try Convert.flags(fields, known: known, "fields")
        guard display || fields & displayFields == 0 else {
            throw .invalid(
                "fields names a display field (description, question, colour, icon, position) but options.struct_size "
                    + "\(o.struct_size) is 1.0's, which has none: initialise options with hc_habit_options_init")
        }
        var changes = Engine.HabitChanges()
        if fields & HC_HABIT_FIELD_DESCRIPTION != 0 { changes.description = .some(try Convert.optionalString(o.description, "description")) }
        if fields & HC_HABIT_FIELD_QUESTION != 0 { changes.question = .some(try Convert.optionalString(o.question, "question")) }
        if fields & HC_HABIT_FIELD_COLOUR != 0 { changes.colour = .some(try Convert.optionalString(o.colour, "colour")) }
        if fields & HC_HABIT_FIELD_ICON != 0 { changes.icon = .some(try Convert.optionalString(o.icon, "icon")) }
        if fields & HC_HABIT_FIELD_POSITION != 0 { changes.position = o.position }
        if fields & HC_HABIT_FIELD_NAME != 0 { changes.name = try Convert.string(o.name, "name") }
        if fields & HC_HABIT_FIELD_TARGET != 0 { changes.target = (o.target, try direction(o.direction)) }
        if fields & HC_HABIT_FIELD_GROUP != 0 { changes.group = .some(try Convert.optionalString(o.group_name, "group_name")) }
        if fields & HC_HABIT_FIELD_UNIT != 0 { changes.unit = .some(try Convert.optionalString(o.unit, "unit")) }
        if fields & HC_HABIT_FIELD_ROUTINE != 0 { changes.routine = try routine(o.routine) }
        if fields & HC_HABIT_FIELD_PROOF != 0 { changes.proofRequired = try flag(o.proof_required, "proof_required") }
        if fields & HC_HABIT_FIELD_SCHEDULE != 0 { changes.schedule = try schedule(o.schedule) }
        if fields & HC_HABIT_FIELD_START_DAY != 0 {
            changes.startDay = if let day = try Convert.day(o.start_day, "start_day") { day } else { try today() }
        }
        return changes
    }

    /// Writes the days a change re-judged to the caller's optional out pointers.
    static func rejudged(_ days: ClosedRange<Int32>?, _ outFirst: UnsafeMutablePointer<Int32>?, _ outLast: UnsafeMutablePointer<Int32>?) {
        outFirst?.pointee = days?.lowerBound ?? dayNone
        outLast?.pointee = days?.upperBound ?? dayNone
    }

    /// Fills uninitialised memory with a habit; its strings are released by clear.
    static func fill(_ target: UnsafeMutablePointer<hc_habit>, _ habit: Habit) throws(HabitError) {
        let spec = habit.spec
        var value = hc_habit()
        value.struct_size = UInt32(MemoryLayout<hc_habit>.size)
        value.kind = spec.kind.rawValue
        value.id = habit.id
        value.target = spec.target
        value.direction = spec.direction.rawValue
        value.routine = spec.routine.rawValue
        value.start_day = spec.startDay
        value.proof_required = spec.proofRequired ? 1 : 0
        value.archived_day = habit.archivedDay ?? dayNone
        value.created_at_ms = habit.createdAtMs
        value.position = spec.display.position
        target.initialize(to: value)
        do throws(HabitError) {
            target.pointee.name = try Convert.fieldString(spec.name)
            target.pointee.group_name = try Convert.fieldString(spec.group)
            target.pointee.unit = try Convert.fieldString(spec.unit)
            target.pointee.schedule = try Convert.fieldString(spec.schedule.description)
            target.pointee.description = try Convert.fieldString(spec.display.description)
            target.pointee.question = try Convert.fieldString(spec.display.question)
            target.pointee.colour = try Convert.fieldString(spec.display.colour)
            target.pointee.icon = try Convert.fieldString(spec.display.icon)
        } catch {
            clear(target)
            throw error
        }
    }

    static func clear(_ habit: UnsafeMutablePointer<hc_habit>) {
        Convert.freeField(habit.pointee.name)
        Convert.freeField(habit.pointee.group_name)
        Convert.freeField(habit.pointee.unit)
        Convert.freeField(habit.pointee.schedule)
        Convert.freeField(habit.pointee.description)
        Convert.freeField(habit.pointee.question)
        Convert.freeField(habit.pointee.colour)
        Convert.freeField(habit.pointee.icon)
    }

    /// One habit the caller frees with hc_habit_free.
    static func allocate(_ habit: Habit) throws(HabitError) -> UnsafeMutablePointer<hc_habit> {
        guard let raw = malloc(MemoryLayout<hc_habit>.size) else { throw HabitError(.noMemory, "out of memory") }
        let pointer = raw.bindMemory(to: hc_habit.self, capacity: 1)
        do throws(HabitError) { try fill(pointer, habit) } catch { free(raw); throw error }
        Registry.add(raw, .habit)
        return pointer
    }
}

/// What an hc_habit_list pointer stands for.
typealias HabitListBox = OwnedArray<hc_habit>

@c @implementation
public func hc_habit_create(_ out_id: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?, _ options: UnsafePointer<hc_habit_options>?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out_id, "out_id")
        let (spec, startDay) = try CHabit.spec(try CHabit.options(options).0)
        out.pointee = try engine.createHabit(spec, startDay: startDay)
    }
}

@c @implementation
public func hc_habit_get(_ out: UnsafeMutablePointer<UnsafeMutablePointer<hc_habit>?>?, _ store: OpaquePointer?, _ id: Int64) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out, "out")
        out.pointee = try CHabit.allocate(try engine.habit(id: id))
    }
}

@c @implementation
public func hc_habit_find(_ out: UnsafeMutablePointer<UnsafeMutablePointer<hc_habit>?>?, _ store: OpaquePointer?, _ name: UnsafePointer<CChar>?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out, "out")
        out.pointee = try CHabit.allocate(try engine.habit(named: try Convert.string(name, "name")))
    }
}

@c @implementation
public func hc_habit_free(_ habit: UnsafeMutablePointer<hc_habit>?) {
    guard let habit, Registry.remove(habit, .habit) else { return }
    CHabit.clear(habit)
    free(habit)
}

@c @implementation
public func hc_habit_update(_ store: OpaquePointer?, _ id: Int64, _ options: UnsafePointer<hc_habit_options>?, _ fields: UInt32) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let (options, display) = try CHabit.options(options)
        let changes = try CHabit.changes(options, display: display, fields: fields, today: engine.today)
        try engine.updateHabit(id: id, changes)
    }
}

@c @implementation
public func hc_habit_update_from(
    _ store: OpaquePointer?, _ id: Int64, _ options: UnsafePointer<hc_habit_options>?, _ fields: UInt32,
    _ fromDay: Int32, _ outFirst: UnsafeMutablePointer<Int32>?, _ outLast: UnsafeMutablePointer<Int32>?
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let (options, display) = try CHabit.options(options)
        let changes = try CHabit.changes(options, display: display, fields: fields, today: engine.today)
        CHabit.rejudged(try engine.updateHabit(id: id, changes, from: try Convert.day(fromDay, "from_day")), outFirst, outLast)
    }
}

@c @implementation
public func hc_habit_archive(_ store: OpaquePointer?, _ id: Int64, _ archived: Int32) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        try engine.archiveHabit(id: id, archived: try CHabit.flag(archived, "archived"))
    }
}

@c @implementation
public func hc_habit_archive_from(
    _ store: OpaquePointer?, _ id: Int64, _ archived: Int32, _ fromDay: Int32,
    _ outFirst: UnsafeMutablePointer<Int32>?, _ outLast: UnsafeMutablePointer<Int32>?
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let rejudged = try engine.archiveHabit(id: id, archived: try CHabit.flag(archived, "archived"), from: try Convert.day(fromDay, "from_day"))
        CHabit.rejudged(rejudged, outFirst, outLast)
    }
}

@c @implementation
public func hc_habit_list_open(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ store: OpaquePointer?, _ flags: UInt32) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out, "out")
        try Convert.flags(flags, known: HC_LIST_INCLUDE_ARCHIVED)
        let box = try HabitListBox(
            try engine.habits(includeArchived: flags & HC_LIST_INCLUDE_ARCHIVED != 0),
            fill: CHabit.fill, clear: CHabit.clear)
        out.pointee = Registry.retain(box, .habitList)
    }
}

@c @implementation
public func hc_habit_list_count(_ out_count: UnsafeMutablePointer<Int64>?, _ list: OpaquePointer?) -> Int32 {
    ListHandle.count(out_count, list, .habitList, "habit list: NULL, freed, or not from hc_habit_list_open", as: hc_habit.self)
}

@c @implementation
public func hc_habit_list_get(_ out: UnsafeMutablePointer<UnsafePointer<hc_habit>?>?, _ list: OpaquePointer?, _ index: Int64) -> Int32 {
    ListHandle.get(out, list, index, .habitList, "habit list: NULL, freed, or not from hc_habit_list_open")
}

@c @implementation
public func hc_habit_list_free(_ list: OpaquePointer?) {
    ListHandle.free(list, .habitList, as: hc_habit.self)
}
