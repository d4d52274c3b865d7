import CHabitCore
import Foundation
import HabitExports
import XCTest

/// Helpers for tests that drive a real store through the C functions.
class StoreTestCase: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = try temporaryDirectory()
    }

    func open(_ name: String = "store.db", flags: UInt32 = 0) throws -> OpaquePointer {
        var store: OpaquePointer?
        let status = hc_store_open(&store, dir + "/" + name, flags)
        guard status == HC_OK, let store else { throw NSError(domain: String(cString: hc_last_error_message()), code: Int(status)) }
        return store
    }

    func ok(_ status: Int32, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(status, HC_OK, String(cString: hc_last_error_message()), file: file, line: line)
    }

    /// body applied to every habit of the store, archived ones too, in id order (the
    /// hc_habit is borrowed from the list, so body copies out what it keeps).
    func eachHabit<T>(_ store: OpaquePointer?, _ body: (hc_habit) -> T) -> [T] {
        var list: OpaquePointer?
        ok(hc_habit_list_open(&list, store, HC_LIST_INCLUDE_ARCHIVED))
        defer { hc_habit_list_free(list) }
        var count: Int64 = 0
        ok(hc_habit_list_count(&count, list))
        return (0..<count).compactMap { index in
            var habit: UnsafePointer<hc_habit>?
            ok(hc_habit_list_get(&habit, list, index))
            return habit.map { body($0.pointee) }
        }
    }

    /// A habit's display fields as the C header hands them back.
    struct Display: Equatable {
        var description: String?
        var question: String?
        var colour: String?
        var icon: String?
        var position: Int64

        init(description: String? = nil, question: String? = nil, colour: String? = nil, icon: String? = nil, position: Int64 = 0) {
            self.description = description
            self.question = question
            self.colour = colour
            self.icon = icon
            self.position = position
        }

        init(_ h: hc_habit) {
            self.init(
                description: h.description.map { String(cString: $0) }, question: h.question.map { String(cString: $0) },
                colour: h.colour.map { String(cString: $0) }, icon: h.icon.map { String(cString: $0) }, position: h.position)
        }
    }

    /// Every habit's name and display fields, archived ones too, in id order.
    func displays(_ store: OpaquePointer?) -> [(name: String, display: Display)] {
        eachHabit(store) { (String(cString: $0.name), Display($0)) }
    }

    func day(_ text: String) -> Int32 {
        var day: Int32 = 0
        ok(hc_date_parse(&day, text))
        return day
    }

    func createHabit(
        _ store: OpaquePointer, _ name: String, kind: Int32 = HC_KIND_CHECKMARK, target: Double = 1,
        schedule: String? = nil, start: String = "2026-01-01"
    ) -> Int64 {
        var options = defaults(hc_habit_options_init)
        options.kind = kind
        options.target = target
        options.direction = HC_DIRECTION_AT_LEAST
        options.start_day = day(start)
        var id: Int64 = 0
        name.withCString { namePointer in
            if let schedule {
                schedule.withCString {
                    options.name = namePointer; options.schedule = $0; ok(hc_habit_create(&id, store, &options))
                }
            } else {
                options.name = namePointer
                ok(hc_habit_create(&id, store, &options))
            }
        }
        return id
    }

    @discardableResult
    func append(
        _ store: OpaquePointer, _ habit: Int64, _ kind: Int32 = HC_ENTRY_DONE, value: Double = 0, on date: String? = nil,
        atMs: Int64 = 0
    ) -> (Int32, Int64) {
        var input = defaults(hc_entry_input_init)
        input.habit_id = habit
        input.kind = kind
        input.value = value
        input.day = date.map(day) ?? Int32.min
        input.source = HC_SOURCE_MANUAL
        input.at_ms = atMs
        var id: Int64 = 0
        let status = hc_entry_append(&id, store, &input)
        return (status, id)
    }

    func total(_ store: OpaquePointer, _ habit: Int64, _ date: String) -> Double {
        var value = 0.0
        ok(hc_habit_day_total(&value, store, habit, day(date)))
        return value
    }

    func export(_ store: OpaquePointer, _ format: Int32) -> String {
        var text: UnsafeMutablePointer<CChar>?
        ok(hc_store_export(&text, store, format))
        defer { hc_free(text) }
        return text.map { String(cString: $0) } ?? ""
    }

    /// The instant of a local wall-clock time in a zone, by Foundation's calendar (a
    /// reference apart from the library's own zone code).
    func instant(_ date: String, _ minute: Int, in zone: String) -> Int64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        let parts = date.split(separator: "-").compactMap { Int($0) }
        let components = DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: minute / 60, minute: minute % 60)
        return Int64(calendar.date(from: components)!.timeIntervalSince1970 * 1000)
    }

    /// A day as YYYY-MM-DD.
    func date(_ day: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: Int(HC_DATE_BUFSIZE))
        ok(hc_date_format(&buffer, HC_DATE_BUFSIZE, day))
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
