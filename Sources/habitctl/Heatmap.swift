import CHabitCore

/// The daily-score heatmap: a GitHub-style grid, one column a week, one row a weekday.
enum Heatmap {
    /// 0: nothing due; 1...4: score buckets (0, under a half, under one, all done).
    static func level(_ score: hc_day_score) -> Int {
        if score.score < 0 { return 0 }
        if score.score == 0 { return 1 }
        if score.score < 0.5 { return 2 }
        if score.score < 1 { return 3 }
        return 4
    }

    /// Columns of seven cells (nil before the first day and after the last), weeks from weekStart.
    static func weeks(_ scores: [hc_day_score], weekStart: Int32) -> [[hc_day_score?]] {
        guard let first = scores.first else { return [] }
        let lead = Int((CivilDateText.weekday(first.day) - weekStart + 7) % 7)
        let cells: [hc_day_score?] = Array(repeating: nil, count: lead) + scores.map { $0 }
        return stride(from: 0, to: cells.count, by: 7).map { start in
            (0..<7).map { start + $0 < cells.count ? cells[start + $0] : nil }
        }
    }

    static func terminal(_ scores: [hc_day_score], weekStart: Int32, colour: Bool) -> String {
        let blocks = ["·", "░", "▒", "▓", "█"]
        let colours = ["\u{1B}[38;5;240m", "\u{1B}[38;5;52m", "\u{1B}[38;5;28m", "\u{1B}[38;5;34m", "\u{1B}[38;5;46m"]
        let names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let columns = weeks(scores, weekStart: weekStart)
        var lines: [String] = []
        for row in 0..<7 {
            var line = names[(Int(weekStart) + row) % 7] + " "
            for column in columns {
                guard let cell = column[row] else { line += " "; continue }
                let level = level(cell)
                line += colour ? colours[level] + blocks[level] + "\u{1B}[0m" : blocks[level]
            }
            lines.append(line)
        }
        let perfect = scores.filter { $0.score >= 1 }.count
        let due = scores.filter { $0.score >= 0 }.count
        lines.append("\(perfect) perfect days of \(due) with something due; · nothing due, ░ none, ▒ under half, ▓ most, █ all")
        return lines.joined(separator: "\n")
    }

    static func svg(_ scores: [hc_day_score], weekStart: Int32) -> String {
        let fills = ["#ebedf0", "#f4c7c3", "#9be9a8", "#40c463", "#216e39"]
        let columns = weeks(scores, weekStart: weekStart)
        let cell = 11, gap = 2, margin = 4
        let width = margin * 2 + columns.count * (cell + gap)
        let height = margin * 2 + 7 * (cell + gap)
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">\n"
        out += "<title>habitcore daily scores</title>\n"
        for (x, column) in columns.enumerated() {
            for (y, item) in column.enumerated() {
                guard let item else { continue }
                let score = item.score < 0 ? "nothing due" : "\(item.done)/\(item.due) done"
                out += "<rect x=\"\(margin + x * (cell + gap))\" y=\"\(margin + y * (cell + gap))\" width=\"\(cell)\" height=\"\(cell)\" " +
                    "rx=\"2\" fill=\"\(fills[level(item)])\"><title>\(Library.format(item.day)): \(score)</title></rect>\n"
            }
        }
        return out + "</svg>\n"
    }
}

/// Weekday of a day number without Foundation's calendar (0 = Sunday; 1970-01-01 was a Thursday).
enum CivilDateText {
    static func weekday(_ day: Int32) -> Int32 {
        let r = (Int64(day) + 4) % 7
        return Int32(r < 0 ? r + 7 : r)
    }
}
