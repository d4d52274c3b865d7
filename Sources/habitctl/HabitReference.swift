/// How a HABIT argument names a habit (stated in `habitctl --help`):
///   `#7` (or `--id 7`) is always the habit with id 7;
///   a bare number (ASCII digits only, like `7` or `007`) is the habit with that id or the
///   habit with that name, and refused as ambiguous (exit 4) when those are two habits;
///   anything else (`Read`, `+1`, `7a`) is a name.
enum HabitReference: Equatable {
    case id(Int64)
    case name(String)
    case idOrName(Int64, String)

    init(_ text: String) {
        if text.hasPrefix("#"), let id = HabitReference.digits(text.dropFirst()) {
            self = .id(id)
        } else if let id = HabitReference.digits(Substring(text)) {
            self = .idOrName(id, text)
        } else {
            self = .name(text)
        }
    }

    /// A positive id written in ASCII digits only (no sign, no spaces), or nil.
    static func digits(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int64(text), value > 0 else { return nil }
        return value
    }
}
