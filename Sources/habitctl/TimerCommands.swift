import Foundation
import HabitKit

/// timer start|pause|resume|stop|discard|status: timers on duration habits. Every
/// figure is the library's (hc_timer_status); nothing is timed here.
enum TimerCommands {
    static func run(_ raw: [String], _ context: Context) throws(CLIError) {
        guard let sub = raw.first else { throw .usage("timer needs a subcommand: start, pause, resume, stop, discard, status") }
        let rest = Array(raw.dropFirst())
        switch sub {
        case "start": try start(rest, context)
        case "pause": try act(rest, context, .pause)
        case "resume": try act(rest, context, .resume)
        case "stop": try act(rest, context, .stop)
        case "discard": try act(rest, context, .discard)
        case "status": try status(rest, context)
        default: throw .usage("unknown timer subcommand '\(sub)'")
        }
    }

    static func atMs(_ args: inout Arguments) throws(CLIError) -> Int64 {
        try args.option("at-ms").map { (text) throws(CLIError) in
            guard let value = Int64(text) else { throw CLIError.usage("--at-ms needs a whole number of UTC milliseconds") }
            return value
        } ?? 0
    }

    static func start(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["at-ms"])
        let reference = try args.require(0, "HABIT")
        let auto = args.flag("auto")
        let at = try atMs(&args)
        try args.finish(maxPositionals: 1)
        let store = try context.openStore()
        let habit = try store.habit(reference)
        let id = try kit { () throws(HabitError) in try store.kit.startTimer(habitID: habit.id, autoComplete: auto, atMs: at) }
        // Committed: from here on nothing may fail the command, or a script would retry it.
        let status = try? store.kit.timerStatus(id)
        context.output.emit(["timer": status.map { json($0) } ?? ["id": id.rawValue]]) {
            "started timer #\(id.rawValue) on \(habit.name)" + (auto ? " (stops itself at the day's target)" : "")
        }
    }

    /// The timer a TIMER argument names: a number is a timer's id; a habit's name names
    /// its one timer running or paused.
    static func timer(_ reference: String, _ store: StoreRef) throws(CLIError) -> TimerID {
        if let id = Int64(reference.hasPrefix("#") ? String(reference.dropFirst()) : reference) { return TimerID(id) }
        let habit = try store.habit(reference)
        let open = try kit { () throws(HabitError) in try store.kit.runningTimers() }.filter { $0.habitID == habit.id }
        guard let only = open.first else { throw CLIError(exitCode: 3, message: "\(habit.name) has no timer running or paused") }
        guard open.count == 1 else {
            throw CLIError(
                exitCode: 4,
                message: "\(habit.name) has \(open.count) timers open: name one by id (\(open.map { "#\($0.id.rawValue)" }.joined(separator: ", ")))")
        }
        return only.id
    }

    static func act(_ raw: [String], _ context: Context, _ action: TimerAction) throws(CLIError) {
        var args = try Arguments(raw, valued: ["at-ms"])
        let reference = try args.require(0, "TIMER")
        let at = try atMs(&args)
        try args.finish(maxPositionals: 1)
        let store = try context.openStore()
        let id = try timer(reference, store)
        try kit { () throws(HabitError) in try store.kit.actOnTimer(id, action, atMs: at) }
        let status = try? store.kit.timerStatus(id)
        context.output.emit(["timer": status.map { json($0) } ?? ["id": id.rawValue]]) {
            status.map { describe($0, store) } ?? "timer #\(id.rawValue): done"
        }
    }

    static func status(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["at-ms"])
        let reference = args.positional(0)
        let at = try atMs(&args)
        try args.finish(maxPositionals: 1)
        let store = try context.openStore(readOnly: true)
        if let reference {
            let id = try timer(reference, store)
            let status = try kit { () throws(HabitError) in try store.kit.timerStatus(id, atMs: at) }
            context.output.emit(["timer": json(status)]) { describe(status, store) }
            return
        }
        let open = try kit { () throws(HabitError) in try store.kit.runningTimers(atMs: at) }
        context.output.emit(["timers": open.map(json)]) {
            open.isEmpty ? "no timer running" : open.map { describe($0, store) }.joined(separator: "\n")
        }
    }

    static func json(_ s: HabitKit.TimerStatus) -> [String: Any] {
        [
            "id": s.id.rawValue, "habit_id": s.habitID.rawValue, "state": Names.name(s.state.rawValue, in: Names.timerStates),
            "at_ms": s.atMs, "started_at_ms": s.startedAtMs, "elapsed_ms": s.elapsedMs, "ended_at_ms": s.endedAtMs ?? NSNull(),
            "seconds": s.seconds, "date": Library.format(s.day.rawValue), "auto_complete": s.autoComplete, "completed": s.completed,
        ]
    }

    /// One line: the timer, its habit, where it stands and for how long.
    static func describe(_ s: HabitKit.TimerStatus, _ store: StoreRef) -> String {
        let name = (try? store.kit.habit(id: s.habitID).name) ?? "habit #\(s.habitID.rawValue)"
        let seconds = s.elapsedMs / 1000
        let clock = String(format: "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
        let state = Names.name(s.state.rawValue, in: Names.timerStates)
        var line = "timer #\(s.id.rawValue) \(name): \(state) \(clock)"
        if s.completed { line += " (reached the target)" }
        if s.seconds > 0 { line += ", \(s.seconds) s counted to \(Library.format(s.day.rawValue))" }
        return line
    }
}
