import CHabitCore
import Foundation

// habitctl: the shell's way into libhabitcore, through include/habitcore.h only.

func run(_ argv: [String]) throws(CLIError) {
    var rest: [String] = []
    var json = false
    var dbPath: String?
    var wantsHelp = false
    var index = 0
    // Global options may stand anywhere.
    while index < argv.count {
        let arg = argv[index]
        index += 1
        switch arg {
        case "--json": json = true
        case "--help", "-h": wantsHelp = true
        case "--version":
            print(String(cString: hc_version_string()))
            return
        case "--db":
            guard index < argv.count else { throw .usage("--db needs a path") }
            dbPath = argv[index]
            index += 1
        default:
            if arg.hasPrefix("--db=") { dbPath = String(arg.dropFirst(5)) } else { rest.append(arg) }
        }
    }
    guard let command = rest.first else {
        if wantsHelp { print(Help.main); return }
        throw .usage("no command given; see habitctl --help")
    }
    var key = command
    if command == "habit", rest.count > 1 { key = "habit \(rest[1])" }
    if wantsHelp {
        print(Help.commands[key] ?? Help.main)
        return
    }
    let context = Context(output: Output(json: json), dbPath: dbPath)
    let args = Array(rest.dropFirst(key.contains(" ") ? 2 : 1))
    switch key {
    case "init": try Commands.initStore(args, context)
    case "habit add": try Commands.habitAdd(args, context)
    case "habit list": try Commands.habitList(args, context)
    case "habit show": try Commands.habitShow(args, context)
    case "habit edit": try Commands.habitEdit(args, context)
    case "habit archive": try Commands.habitArchive(args, context)
    case "log": try Commands.log(args, context, skip: false)
    case "skip": try Commands.log(args, context, skip: true)
    case "undo": try Commands.undo(args, context)
    case "entries": try Commands.entries(args, context)
    case "days": try Commands.days(args, context)
    case "export": try Commands.export(args, context)
    case "import": try Commands.importData(args, context)
    case "today": try ProgressCommands.today(args, context)
    case "streak": try ProgressCommands.streak(args, context)
    case "stats": try ProgressCommands.stats(args, context)
    case "heatmap": try ProgressCommands.heatmap(args, context)
    case "vacation": try ProgressCommands.vacation(args, context)
    case "credits": try CreditCommands.run(args, context)
    case "awards": try AwardCommands.awards(args, context)
    case "referral": try AwardCommands.referral(args, context)
    case "events": try AwardCommands.events(args, context)
    case "proof": try ProofCommands.proof(args, context)
    case "plugin": try ProofCommands.plugin(args, context)
    case "reminders": try ReminderCommands.run(args, context)
    case "shield": try ShieldCommands.run(args, context)
    case "demo": try Demo.run(args, context)
    case "habit": throw .usage("habit needs a subcommand: add, list, show, edit, archive")
    default: throw .usage("unknown command '\(key)'; see habitctl --help")
    }
}

Writer.guardStandardDescriptors()
do {
    try run(RawArguments.validated())
} catch {
    Output.log("habitctl: \(error.message)")
    Writer.fail(error.exitCode)
}
Writer.finish(0)
