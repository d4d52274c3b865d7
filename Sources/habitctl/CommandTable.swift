/// Every command, by the words that name it: the dispatch, "did you mean", the
/// shell completions and the man page all read this one list.
enum CommandTable {
    static let all: [(name: String, run: @Sendable ([String], Context) throws(CLIError) -> Void)] = [
        ("init", Commands.initStore),
        ("habit add", Commands.habitAdd),
        ("habit list", Commands.habitList),
        ("habit show", Commands.habitShow),
        ("habit edit", Commands.habitEdit),
        ("habit archive", Commands.habitArchive),
        ("log", { (args, context) throws(CLIError) in try Commands.log(args, context, skip: false) }),
        ("skip", { (args, context) throws(CLIError) in try Commands.log(args, context, skip: true) }),
        ("undo", Commands.undo),
        ("entries", Commands.entries),
        ("days", Commands.days),
        ("export", Commands.export),
        ("import", Commands.importData),
        ("today", ProgressCommands.today),
        ("streak", ProgressCommands.streak),
        ("stats", ProgressCommands.stats),
        ("heatmap", ProgressCommands.heatmap),
        ("vacation", ProgressCommands.vacation),
        ("credits", CreditCommands.run),
        ("awards", AwardCommands.awards),
        ("referral", AwardCommands.referral),
        ("events", AwardCommands.events),
        ("proof", ProofCommands.proof),
        ("plugin", ProofCommands.plugin),
        ("reminders", ReminderCommands.run),
        ("completions", Completions.run),
        ("manual", Manual.run),
        ("demo", Demo.run),
    ]
}
