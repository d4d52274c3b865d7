/// A small argument parser: positionals, `--flag`, `--option VALUE` and `--option=VALUE`.
struct Arguments {
    private(set) var positionals: [String] = []
    private var options: [String: String] = [:]
    private var flags: Set<String> = []
    private var consumed: Set<String> = []

    /// Options that take a value; everything else starting with "--" is a flag.
    init(_ raw: [String], valued: Set<String>) throws(CLIError) {
        var index = 0
        var idReference: String?
        while index < raw.count {
            let arg = raw[index]
            index += 1
            if arg == "--" { positionals += raw[index...]; break }
            guard arg.hasPrefix("--"), arg.count > 2 else { positionals.append(arg); continue }
            let body = String(arg.dropFirst(2))
            if !valued.contains("id"), body == "id" || body.hasPrefix("id=") {
                // `--id 7` names habit 7 wherever a command takes HABIT: it becomes `#7`.
                let value: String
                if body == "id" {
                    guard index < raw.count else { throw CLIError.usage("--id needs a habit id") }
                    value = raw[index]
                    index += 1
                } else {
                    value = String(body.dropFirst(3))
                }
                guard HabitReference.digits(Substring(value)) != nil else { throw CLIError.usage("--id takes a habit id, like 7") }
                idReference = "#" + value
                continue
            }
            if let eq = body.firstIndex(of: "=") {
                options[String(body[..<eq])] = String(body[body.index(after: eq)...])
            } else if valued.contains(body) {
                guard index < raw.count else { throw CLIError.usage("--\(body) needs a value") }
                options[body] = raw[index]
                index += 1
            } else {
                flags.insert(body)
            }
        }
        if let idReference { positionals.insert(idReference, at: 0) }
    }

    mutating func flag(_ name: String) -> Bool {
        consumed.insert(name)
        return flags.contains(name)
    }

    mutating func option(_ name: String) -> String? {
        consumed.insert(name)
        return options[name]
    }

    /// The whole number an option gives, else `fallback` when it is absent.
    mutating func wholeNumber(_ name: String, default fallback: Int64) throws(CLIError) -> Int64 {
        guard let text = option(name) else { return fallback }
        guard let value = Int64(text) else { throw .invalid("--\(name) must be a whole number") }
        return value
    }

    /// Refuses options the command does not know, so typos never pass silently.
    func finish(maxPositionals: Int) throws(CLIError) {
        for name in Set(options.keys).union(flags) where !consumed.contains(name) {
            throw CLIError.usage("unknown option --\(name)")
        }
        if positionals.count > maxPositionals {
            throw CLIError.usage("unexpected argument '\(positionals[maxPositionals])'")
        }
    }

    func positional(_ index: Int) -> String? {
        index < positionals.count ? positionals[index] : nil
    }

    func require(_ index: Int, _ what: String) throws(CLIError) -> String {
        guard let value = positional(index) else { throw CLIError.usage("missing \(what)") }
        return value
    }
}
