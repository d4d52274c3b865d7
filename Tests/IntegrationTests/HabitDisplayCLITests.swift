import Foundation
import XCTest

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// habitctl's side of the display fields and the heatmap: the display fields through habit
/// add/edit/show/list (human and --json), and the heatmap SVG a person opens, read back
/// with Foundation's XMLParser for its structure (title, weekday rows and labels, month
/// labels at month starts, a legend of every level, cells coloured by their day).
final class HabitDisplayCLITests: HabitctlTestCase {
    /// The habit a --json habit command printed (new keys only: schema_version stays 1).
    func habitJSON(_ result: ProcessResult) throws -> [String: Any] {
        try XCTUnwrap(try json(result)["habit"] as? [String: Any])
    }

    func testAddEditShowAndListCarryTheDisplayFields() throws {
        XCTAssertSucceeded(try habitctl("init", "--timezone", "UTC"), "init")
        let added = try habitJSON(
            try habitctl(
                "--json", "habit", "add", "Meditate", "--description", "Ten minutes\neyes closed",
                "--question", "Did you meditate?", "--colour", "#8E24AA", "--icon", "lotus", "--position", "-1"))
        XCTAssertEqual(added["description"] as? String, "Ten minutes\neyes closed")
        XCTAssertEqual(added["question"] as? String, "Did you meditate?")
        XCTAssertEqual(added["colour"] as? String, "#8E24AA")
        XCTAssertEqual(added["icon"] as? String, "lotus")
        XCTAssertEqual(added["position"] as? Int, -1)
        let show = try habitctl("habit", "show", "Meditate")
        XCTAssertSucceeded(show, "show")
        for line in ["  question: Did you meditate?", "  description: Ten minutes\n    eyes closed", "  colour #8E24AA", "  icon lotus", "  position -1"] {
            XCTAssertTrue(show.stdout.contains(line), show.stdout)
        }
        // --color is the same option; "" clears; other fields stay.
        let edited = try habitJSON(try habitctl("--json", "habit", "edit", "Meditate", "--color", "#00897b", "--question", "", "--position", "4"))
        XCTAssertEqual(edited["colour"] as? String, "#00897b")
        XCTAssertTrue(edited["question"] is NSNull)
        XCTAssertEqual(edited["description"] as? String, "Ten minutes\neyes closed")
        XCTAssertEqual(edited["position"] as? Int, 4)
        let plain = try habitJSON(try habitctl("--json", "habit", "add", "Plain"))
        for key in ["description", "question", "colour", "icon"] { XCTAssertTrue(plain[key] is NSNull, key) }
        XCTAssertEqual(plain["position"] as? Int, 0)
        let list = try habitctl("--json", "habit", "list")
        let habits = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])?["habits"] as? [[String: Any]])
        XCTAssertEqual(habits.map { $0["colour"] as? String }, ["#00897b", nil])

        // Bad values: exit 5 (invalid), the library's message, nothing changed.
        for args in [
            ["--colour", "purple"], ["--color", "#12345"], ["--description", String(repeating: "x", count: 4097)],
            ["--question", "two\nlines"], ["--position", "soon"],
        ] {
            let result = try runProcess([Paths.habitctl, "--db", db, "habit", "edit", "Meditate"] + args)
            XCTAssertEqual(result.status, args[0] == "--position" ? 2 : 5, "\(args[0]): \(result.stderr)")
        }
        XCTAssertTrue(try habitctl("habit", "edit", "Meditate", "--colour", "purple").stderr.contains("colour 'purple' is not #RRGGBB"))
        XCTAssertEqual(try habitJSON(try habitctl("--json", "habit", "show", "Meditate"))["colour"] as? String, "#00897b")
    }

    /// The SVG's elements by what the tests look for.
    final class SVGReader: NSObject, XMLParserDelegate {
        struct Element { var name: String; var attributes: [String: String]; var text: String; var group: String? }
        var elements: [Element] = []
        private var stack: [Int] = []
        private var groups: [String?] = []

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if name == "g" { groups.append(attributes["class"]); return }
            elements.append(Element(name: name, attributes: attributes, text: "", group: groups.last ?? nil))
            stack.append(elements.count - 1)
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if let index = stack.last { elements[index].text += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "g" { groups.removeLast() } else { stack.removeLast() }
        }

        static func read(_ path: String) throws -> [Element] {
            let parser = try XCTUnwrap(XMLParser(contentsOf: URL(fileURLWithPath: path)))
            let reader = SVGReader()
            parser.delegate = reader
            XCTAssertTrue(parser.parse(), "well-formed XML: \(String(describing: parser.parserError))")
            return reader.elements
        }
    }

    func testTheHeatmapSVGReadsAtAGlance() throws {
        XCTAssertSucceeded(try habitctl("init", "--timezone", "UTC", "--week-start", "mon"), "init")
        let name = "Read & <write>"
        XCTAssertSucceeded(try habitctl("habit", "add", name, "--start", "2026-08-01", "--colour", "#8E24AA"), "add")
        XCTAssertSucceeded(try habitctl("habit", "add", "Walk", "--start", "2026-08-01"), "add")
        // Done on even days of the month, skipped on days divisible by 5 and odd, an entry undone on the 7th.
        var done: Set<String> = [], skipped: Set<String> = []
        for dayNumber in 0..<92 {
            let date = try XCTUnwrap(
                Calendar(identifier: .gregorian).date(
                    byAdding: .day, value: dayNumber,
                    to: ISO8601DateFormatter().date(from: "2026-08-01T12:00:00Z")!))
            let text = String(ISO8601DateFormatter().string(from: date).prefix(10))
            let dayOfMonth = Int(text.suffix(2)) ?? 0
            if dayOfMonth % 2 == 0 {
                XCTAssertSucceeded(try habitctl("log", name, "--date", text), "log"); done.insert(text)
            } else if dayOfMonth % 5 == 0 {
                XCTAssertSucceeded(try habitctl("skip", name, "--date", text), "skip"); skipped.insert(text)
            }
            if dayOfMonth == 7 {
                XCTAssertSucceeded(try habitctl("log", name, "--date", text), "log")
                XCTAssertSucceeded(try habitctl("undo", name, "--date", text), "undo")
            }
            if dayNumber % 3 == 0 { XCTAssertSucceeded(try habitctl("log", "Walk", "--date", text), "walk") }
        }
        let folder = try temporaryDirectory()
        let habitSVG = folder + "/habit.svg", storeSVG = folder + "/store.svg"
        XCTAssertSucceeded(try habitctl("heatmap", name, "--days", "120", "--date", "2026-10-31", "--svg", habitSVG), "heatmap habit")
        XCTAssertSucceeded(try habitctl("heatmap", "--days", "120", "--date", "2026-10-31", "--svg", storeSVG), "heatmap store")

        // The habit's grid starts on its start day, Aug 1; the store's 120 days on Sat Jul 4,
        // whose month is labelled over the first column (Aug 1 is four columns on).
        for (path, title, levels, monthNames) in [
            (habitSVG, name, 4, ["Aug", "Sep", "Oct"]),
            (storeSVG, "Daily scores: " + URL(fileURLWithPath: db).deletingPathExtension().lastPathComponent, 5, ["Jul", "Aug", "Sep", "Oct"]),
        ] {
            let elements = try SVGReader.read(path)
            // The title, drawn and as the document's title.
            XCTAssertEqual(elements.first { $0.attributes["class"] == "title" }?.text, title, path)
            XCTAssertTrue(elements.first { $0.name == "title" }?.text.hasPrefix(title + ":") == true, path)
            // Seven weekday rows, labelled from the week start, each label on its row.
            let weekdays = elements.filter { $0.group == "weekdays" }
            XCTAssertEqual(weekdays.map(\.text), ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"])
            let cells = elements.filter { $0.attributes["class"] == "day" }
            let rowYs = Set(cells.compactMap { Int($0.attributes["y"] ?? "") }).sorted()
            XCTAssertEqual(rowYs.count, 7, "seven weekday rows")
            for (label, y) in zip(weekdays, rowYs) {
                let baseline = try XCTUnwrap(Int(label.attributes["y"] ?? ""))
                XCTAssertTrue(baseline > y && baseline <= y + 12, "\(label.text) sits on its row")
            }
            // Month labels: each at the column of its month's first day (or of the grid's
            // first day), in order, none overlapping.
            let months = elements.filter { $0.group == "months" }
            XCTAssertEqual(months.map(\.text), monthNames, path)
            let firstDay = cells.compactMap { $0.attributes["data-date"] }.min()
            for label in months {
                let date = try XCTUnwrap(label.attributes["data-date"])
                let cell = try XCTUnwrap(cells.first { $0.attributes["data-date"] == date }, date)
                XCTAssertEqual(label.attributes["x"], cell.attributes["x"], date)
                XCTAssertTrue(date.hasSuffix("-01") || date == firstDay, date)
            }
            let xs = months.compactMap { Int($0.attributes["x"] ?? "") }
            XCTAssertTrue(zip(xs, xs.dropFirst()).allSatisfy { $1 - $0 >= 40 }, "labels at least three columns apart: \(xs)")
            // A legend with each level, its swatch filled as the cells of that level.
            let swatches = elements.filter { $0.group == "legend" && $0.name == "rect" }
            let legendTexts = elements.filter { $0.group == "legend" && $0.name == "text" }
            XCTAssertEqual(swatches.map { $0.attributes["data-level"] }, (0..<levels).map(String.init))
            XCTAssertEqual(legendTexts.count, levels)
            XCTAssertTrue(legendTexts.allSatisfy { !$0.text.isEmpty })
            for cell in cells {
                let swatch = swatches.first { $0.attributes["data-level"] == cell.attributes["data-level"] }
                XCTAssertEqual(cell.attributes["fill"], swatch?.attributes["fill"], "cell \(cell.attributes["data-date"] ?? "")")
            }
            XCTAssertEqual(Set(swatches.compactMap { $0.attributes["fill"] }).count, levels, "each level its own colour")
        }

        // One habit: each cell's level is that day's state.
        let cells = try SVGReader.read(habitSVG).filter { $0.attributes["class"] == "day" }
        XCTAssertEqual(cells.count, 92, "from the habit's start day to the date")
        for cell in cells {
            let date = try XCTUnwrap(cell.attributes["data-date"])
            let expected = done.contains(date) ? "3" : skipped.contains(date) ? "2" : "0"
            XCTAssertEqual(cell.attributes["data-level"], expected, date)
        }
        XCTAssertEqual(cells.first { $0.attributes["data-level"] == "3" }?.attributes["fill"], "#8E24AA", "done in the habit's colour")
        XCTAssertEqual(cells.first { $0.attributes["data-date"] == "2026-08-07" }?.attributes["data-level"], "0", "an undone entry is nothing")
        // The store: each cell's level from that day's score in habitctl's JSON.
        let storeCells = try SVGReader.read(storeSVG).filter { $0.attributes["class"] == "day" }
        let days = try XCTUnwrap(
            (try JSONSerialization.jsonObject(
                with: Data(
                    try habitctl("--json", "heatmap", "--days", "120", "--date", "2026-10-31")
                        .stdout.utf8)) as? [String: Any])?["days"] as? [[String: Any]])
        XCTAssertEqual(storeCells.count, days.count)
        for (cell, row) in zip(storeCells.sorted { ($0.attributes["data-date"] ?? "") < ($1.attributes["data-date"] ?? "") }, days) {
            XCTAssertEqual(cell.attributes["data-date"], row["date"] as? String)
            let score = row["score"] as? Double
            let level = score.map { $0 == 0 ? 1 : $0 < 0.5 ? 2 : $0 < 1 ? 3 : 4 } ?? 0
            XCTAssertEqual(cell.attributes["data-level"], String(level), row["date"] as? String ?? "")
        }
    }
}
