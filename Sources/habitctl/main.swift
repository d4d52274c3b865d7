import Foundation
import HabitKit

// habitctl: the shell's way into libhabitcore, through HabitKit, the Swift binding of include/habitcore.h.

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
            print(HabitKitVersion.runningString)
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
    let key = Help.key(rest)
    if wantsHelp {
        print(Help.text(key))
        return
    }
    let context = Context(output: Output(json: json), dbPath: dbPath)
    let args = Array(rest.dropFirst(key.contains(" ") ? 2 : 1))
    if command == "habit", !key.contains(" ") { throw .usage("habit needs a subcommand: add, list, show, edit, archive") }
    guard let entry = CommandTable.all.first(where: { $0.name == key }) else {
        throw .usage("unknown command '\(key)'\(Suggestion.hint(key, among: CommandTable.all.map(\.name))); see habitctl --help")
    }
    try entry.run(args, context)
}

Writer.guardStandardDescriptors()
var arguments: [String] = []
do {
    arguments = try RawArguments.validated()
    try run(arguments)
} catch {
    if arguments.contains("--json") {
        // A script asked for JSON: the error is JSON too, on stderr, with its exit code's name.
        Output.log(
            Output.encode([
                "schema_version": Output.schemaVersion,
                "error": ["code": CLIError.name(of: error.exitCode), "exit_code": error.exitCode, "message": error.message],
            ]))
    } else {
        Output.log("habitctl: \(error.message)")
    }
    Writer.fail(error.exitCode)
}
Writer.finish(0)
