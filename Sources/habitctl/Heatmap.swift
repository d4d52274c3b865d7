import HabitKit

/// The heatmap: a GitHub-style grid, one column a week, one row a weekday, for the
/// store's daily scores or one habit's day states; on a terminal, or as an SVG image.
enum Heatmap {
    /// One day's cell: its level on the scale and what its tooltip says.
    struct Cell {
        var day: Int32
        var level: Int
        var label: String
    }

    /// The levels a heatmap's cells take, lightest first: a name and a fill each.
    struct Scale {
        var names: [String]
        var fills: [String]
        var blocks: [String]
        var terminalColours: [String]

        /// The store's daily score buckets.
        static let scores = Scale(
            names: ["nothing due", "none done", "under half", "half or more", "all done"],
            fills: ["#ebedf0", "#f4c7c3", "#9be9a8", "#40c463", "#216e39"],
            blocks: ["·", "░", "▒", "▓", "█"],
            terminalColours: ["\u{1B}[38;5;240m", "\u{1B}[38;5;52m", "\u{1B}[38;5;28m", "\u{1B}[38;5;34m", "\u{1B}[38;5;46m"])

        /// One habit's day states; done takes the habit's colour when it has one that
        /// another level does not already use.
        static func states(done: String?) -> Scale {
            let others = ["#ebedf0", "#f4c7c3", "#b6c8e8"]
            let colour = done.flatMap { others.contains($0.lowercased()) ? nil : $0 } ?? "#216e39"
            return Scale(
                names: ["nothing logged", "logged, not done", "skipped", "done"],
                fills: others + [colour],
                blocks: ["·", "░", "▒", "█"],
                terminalColours: ["\u{1B}[38;5;240m", "\u{1B}[38;5;52m", "\u{1B}[38;5;67m", "\u{1B}[38;5;46m"])
        }
    }

    /// 0: nothing due; 1...4: score buckets (0, under a half, under one, all done).
    static func level(_ score: DayScore) -> Int {
        guard let score = score.score else { return 0 }
        if score == 0 { return 1 }
        if score < 0.5 { return 2 }
        if score < 1 { return 3 }
        return 4
    }

    static func cells(_ scores: [DayScore]) -> [Cell] {
        scores.map { score in
            Cell(
                day: score.day.rawValue, level: level(score),
                label: score.score == nil ? "nothing due" : "\(score.done)/\(score.due) done")
        }
    }

    /// A habit's days: 3 done, 2 skipped, 1 entries but not done, 0 nothing.
    static func cells(_ states: [DayState]) -> [Cell] {
        states.map { state in
            let level = state.flags.contains(.done) ? 3 : state.flags.contains(.skipped) ? 2 : state.flags.contains(.hasEntries) ? 1 : 0
            return Cell(day: state.day.rawValue, level: level, label: Scale.states(done: nil).names[level])
        }
    }

    /// Columns of seven cells (nil before the first day and after the last), weeks from weekStart.
    static func weeks(_ cells: [Cell], weekStart: Int32) -> [[Cell?]] {
        guard let first = cells.first else { return [] }
        let lead = Int((CivilDateText.weekday(first.day) - weekStart + 7) % 7)
        let padded: [Cell?] = Array(repeating: nil, count: lead) + cells.map { $0 }
        return stride(from: 0, to: padded.count, by: 7).map { start in
            (0..<7).map { start + $0 < padded.count ? padded[start + $0] : nil }
        }
    }

    static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func terminal(_ cells: [Cell], scale: Scale, weekStart: Int32, colour: Bool, summary: String) -> String {
        let columns = weeks(cells, weekStart: weekStart)
        var lines: [String] = []
        for row in 0..<7 {
            var line = weekdayNames[(Int(weekStart) + row) % 7] + " "
            for column in columns {
                guard let cell = column[row] else { line += " "; continue }
                let block = scale.blocks[cell.level]
                line += colour ? scale.terminalColours[cell.level] + block + "\u{1B}[0m" : block
            }
            lines.append(line)
        }
        let legend = zip(scale.blocks, scale.names).map { "\($0) \($1)" }.joined(separator: ", ")
        lines.append(summary + "; " + legend)
        return lines.joined(separator: "\n")
    }

    /// Where a month label goes: the column holding the month's first day (and the
    /// first column, for the month the range starts in), the earlier of two labels
    /// closer than three columns left out so that none overlap.
    static func monthLabels(_ columns: [[Cell?]]) -> [(column: Int, day: Int32, month: Int)] {
        var labels: [(column: Int, day: Int32, month: Int)] = []
        for (index, column) in columns.enumerated() {
            for cell in column.compactMap({ $0 }) {
                guard let date = CivilDateText.date(cell.day) else { continue }
                let first = index == 0 && labels.isEmpty && cell.day == columns[0].compactMap({ $0 }).first?.day
                guard date.day == 1 || first else { continue }
                if let last = labels.last, index - last.column < 3 { labels.removeLast() }
                labels.append((index, cell.day, date.month))
            }
        }
        return labels
    }

    /// The image a person opens: a title, the range, month labels over the weeks,
    /// weekday labels beside them, a cell per day with its tooltip, and a legend.
    static func svg(_ cells: [Cell], scale: Scale, weekStart: Int32, title: String, subtitle: String) -> String {
        let columns = weeks(cells, weekStart: weekStart)
        let cell = 12, gap = 3, step = cell + gap, margin = 16, labelWidth = 30
        let gridLeft = margin + labelWidth, titleY = margin + 14, subtitleY = titleY + 18, monthY = subtitleY + 22
        let gridTop = monthY + 8, gridBottom = gridTop + 7 * step - gap
        let legendY = gridBottom + 22
        // Text widths estimated from the font size (sans-serif averages about 0.6 em a character).
        func width(_ text: String, _ size: Double) -> Int { Int((Double(text.count) * size * 0.62).rounded(.up)) }
        var legendItems: [(x: Int, level: Int)] = []
        var x = gridLeft
        for (level, name) in scale.names.enumerated() {
            legendItems.append((x, level))
            x += cell + 5 + width(name, 11) + 14
        }
        let legendRight = x - 14
        let contentRight = max(gridLeft + columns.count * step - gap, legendRight, margin + width(title, 16), margin + width(subtitle, 11))
        let svgWidth = contentRight + margin, svgHeight = legendY + cell + margin
        var out =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(svgWidth)\" height=\"\(svgHeight)\" viewBox=\"0 0 \(svgWidth) \(svgHeight)\" "
            + "font-family=\"Helvetica, Arial, DejaVu Sans, sans-serif\">\n"
        out += "<title>\(escape(title)): \(escape(subtitle))</title>\n"
        out += "<rect class=\"background\" width=\"\(svgWidth)\" height=\"\(svgHeight)\" fill=\"#ffffff\"/>\n"
        out += "<text class=\"title\" x=\"\(margin)\" y=\"\(titleY)\" font-size=\"16\" font-weight=\"bold\" fill=\"#24292f\">\(escape(title))</text>\n"
        out += "<text class=\"subtitle\" x=\"\(margin)\" y=\"\(subtitleY)\" font-size=\"11\" fill=\"#57606a\">\(escape(subtitle))</text>\n"
        out += "<g class=\"months\" font-size=\"10\" fill=\"#57606a\">\n"
        for label in monthLabels(columns) {
            out +=
                "<text x=\"\(gridLeft + label.column * step)\" y=\"\(monthY)\" data-date=\"\(Library.format(label.day))\">\(monthNames[label.month - 1])</text>\n"
        }
        out += "</g>\n<g class=\"weekdays\" font-size=\"10\" fill=\"#57606a\">\n"
        for row in 0..<7 {
            let y = gridTop + row * step + cell - 2
            out += "<text x=\"\(margin)\" y=\"\(y)\" data-row=\"\(row)\">\(weekdayNames[(Int(weekStart) + row) % 7])</text>\n"
        }
        out += "</g>\n<g class=\"days\">\n"
        for (index, column) in columns.enumerated() {
            for (row, item) in column.enumerated() {
                guard let item else { continue }
                out +=
                    "<rect class=\"day\" x=\"\(gridLeft + index * step)\" y=\"\(gridTop + row * step)\" width=\"\(cell)\" height=\"\(cell)\" rx=\"2\" "
                    + "fill=\"\(scale.fills[item.level])\" data-date=\"\(Library.format(item.day))\" data-level=\"\(item.level)\">"
                    + "<title>\(Library.format(item.day)): \(escape(item.label))</title></rect>\n"
            }
        }
        out += "</g>\n<g class=\"legend\" font-size=\"11\" fill=\"#24292f\">\n"
        for item in legendItems {
            out +=
                "<rect class=\"swatch\" x=\"\(item.x)\" y=\"\(legendY)\" width=\"\(cell)\" height=\"\(cell)\" rx=\"2\" fill=\"\(scale.fills[item.level])\" "
                + "stroke=\"#d0d7de\" stroke-width=\"0.5\" data-level=\"\(item.level)\"/>\n"
            out += "<text x=\"\(item.x + cell + 5)\" y=\"\(legendY + cell - 2)\" data-level=\"\(item.level)\">\(escape(scale.names[item.level]))</text>\n"
        }
        return out + "</g>\n</svg>\n"
    }

    /// Text as XML character data or an attribute value.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}

/// Weekday and date of a day number without Foundation's calendar.
enum CivilDateText {
    /// 0 = Sunday; 1970-01-01 was a Thursday.
    static func weekday(_ day: Int32) -> Int32 {
        let r = (Int64(day) + 4) % 7
        return Int32(r < 0 ? r + 7 : r)
    }

    /// Year, month and day of a day number, through the library's own date text.
    static func date(_ day: Int32) -> (year: Int, month: Int, day: Int)? {
        let parts = Library.format(day).split(separator: "-")
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let date = Int(parts[2]), (1...12).contains(month) else { return nil }
        return (year, month, date)
    }
}
