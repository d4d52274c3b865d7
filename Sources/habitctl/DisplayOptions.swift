import HabitKit

/// What habit add and habit edit take of a habit's display fields: --description,
/// --question, --colour (or --color), --icon, --position. An empty text clears a field
/// (the library reads "" as none); the library checks every value.
struct DisplayOptions {
    static let valued: Set<String> = ["description", "question", "colour", "color", "icon", "position"]

    var description: String?
    var question: String?
    var colour: String?
    var icon: String?
    var position: Int64?

    init() {}

    init(_ args: inout Arguments) throws(CLIError) {
        description = args.option("description")
        question = args.option("question")
        let colour = args.option("colour"), color = args.option("color")
        guard colour == nil || color == nil else { throw .usage("give --colour or --color, not both") }
        self.colour = colour ?? color
        icon = args.option("icon")
        if let text = args.option("position") {
            guard let value = Int64(text) else { throw .usage("--position takes a whole number, not '\(text)'") }
            position = value
        }
    }

    /// The fields given, for habit edit's update.
    var fields: HabitFields {
        var fields: HabitFields = []
        if description != nil { fields.insert(.description) }
        if question != nil { fields.insert(.question) }
        if colour != nil { fields.insert(.colour) }
        if icon != nil { fields.insert(.icon) }
        if position != nil { fields.insert(.position) }
        return fields
    }
}

extension Habit {
    /// The display fields as `habit show` prints them, one line each, those that are set.
    var displayLines: [String] {
        var lines: [String] = []
        if let question { lines.append("  question: \(question)") }
        if let description {
            lines.append("  description: " + description.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n    "))
        }
        if let colour { lines.append("  colour \(colour)") }
        if let icon { lines.append("  icon \(icon)") }
        if position != 0 { lines.append("  position \(position)") }
        return lines
    }
}
