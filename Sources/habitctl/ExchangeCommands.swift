import Foundation
import HabitKit

/// export, backup and import: the whole store as the library writes and reads it.
extension Commands {
    static func export(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["format", "output", "date"])
        if args.flag("loop") {
            // Loop Habit Tracker's CSV export: Habits.csv and Checkmarks.csv into a folder.
            guard let folder = args.option("output") else { throw .usage("--loop needs --output FOLDER") }
            let day = try args.option("date").map { (text) throws(CLIError) in Day(rawValue: try Library.parseDate(text)) }
            try args.finish(maxPositionals: 0)
            let store = try context.openStore(readOnly: true)
            let csv = try kit { () throws(HabitError) in try store.kit.exportLoopCSV(through: day) }
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (name, text) in [("Habits.csv", csv.habits), ("Checkmarks.csv", csv.checkmarks)] {
                let path = folder + "/" + name
                try FileOutput.write(Array(text.utf8), to: path)
            }
            context.output.emit(["exported": true, "folder": folder]) { "exported Habits.csv and Checkmarks.csv to \(folder)" }
            return
        }
        let format = try exportFormat(args.option("format") ?? "json")
        let outputPath = args.option("output")
        try args.finish(maxPositionals: 0)
        let store = try context.openStore(readOnly: true)
        if let outputPath {
            // Streamed record by record into a file that appears whole or not at all.
            try TransferLine("exporting to \(outputPath)").run { (progress) throws(HabitError) in
                try store.kit.export(to: outputPath, format: format, progress: progress)
            }
            Output.log("exported to \(outputPath)")
        } else {
            Writer.standardOutput(try kit { () throws(HabitError) in try store.kit.export(format: format) })
        }
    }

    /// `backup FILE`: a consistent copy of the store file (SQLite's online backup), 0600.
    static func backup(_ raw: [String], _ context: Context) throws(CLIError) {
        let args = try Arguments(raw, valued: [])
        let file = try args.require(0, "FILE")
        try args.finish(maxPositionals: 1)
        let store = try context.openStore(readOnly: true)
        try kit { () throws(HabitError) in try store.kit.backup(to: file) }
        context.output.emit(["backup": file]) { "backed up to \(file)" }
    }

    static func importData(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["format"])
        let loop = args.flag("loop")
        let habitBull = args.flag("habitbull")
        guard !(loop && habitBull) else { throw .usage("--loop and --habitbull exclude each other") }
        let format = try args.option("format").map(exportFormat) ?? .detect
        try args.finish(maxPositionals: loop ? 2 : 1)
        let store = try context.openStore()
        if habitBull {
            let csv = try readInput(try args.require(0, "CSV"))
            try kit { () throws(HabitError) in try store.kit.importHabitBullCSV(csv) }
        } else if loop && args.positionals.count == 1 {
            // Loop's zip as Loop hands it over, or its full backup database.
            let path = try args.require(0, "ZIP or DB")
            let data = path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: path)
            guard let data else { throw CLIError(exitCode: 3, message: "cannot read \(path)") }
            let bytes = [UInt8](data)
            if path != "-" && bytes.starts(with: Array("SQLite format 3".utf8)) {
                try kit { () throws(HabitError) in try store.kit.importLoopDatabase(path: path) }
            } else {
                try kit { () throws(HabitError) in try store.kit.importLoopZip(bytes) }
            }
        } else if loop {
            let habits = try readInput(try args.require(0, "HABITS_CSV"))
            let checkmarks = try readInput(try args.require(1, "CHECKMARKS_CSV"))
            try kit { () throws(HabitError) in try store.kit.importLoopCSV(habits: habits, checkmarks: checkmarks) }
        } else if let path = args.positionals.first, path != "-" {
            // Read a line at a time (JSON Lines): the file is never whole in memory.
            try TransferLine("importing \(path)").run { (progress) throws(HabitError) in
                try store.kit.importFile(path, format: format, progress: progress)
            }
        } else {
            let text = try readInput(try args.require(0, "FILE or -"))
            try kit { () throws(HabitError) in try store.kit.importText(text, format: format) }
        }
        let count = try store.habits(includeArchived: true).count
        context.output.emit(["imported": true, "habits": count]) { "imported; the store now has \(count) habits" }
    }

    static func exportFormat(_ name: String) throws(CLIError) -> ExchangeFormat {
        switch name {
        case "json": return .json
        case "jsonl": return .jsonLines
        default: throw .usage("format '\(name)' is not json or jsonl")
        }
    }
}
