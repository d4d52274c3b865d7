import CHabitCore
import Foundation
import XCTest

/// A habit's display fields (description, question, colour, icon, position) through the
/// C header: created, read back, edited, refused when bad, kept by the store's export and
/// a migration, and a caller built against 1.0's smaller hc_habit_options still served.
final class HabitDisplayTests: StoreTestCase {
    /// Runs body with options holding these texts (NULL for nil) during the call.
    func withDisplay<T>(
        _ options: hc_habit_options, name: String? = nil, _ display: Display,
        _ body: (inout hc_habit_options) -> T
    ) -> T {
        withOptionalCString(name) { name in
            withOptionalCString(display.description) { description in
                withOptionalCString(display.question) { question in
                    withOptionalCString(display.colour) { colour in
                        withOptionalCString(display.icon) { icon in
                            var filled = options
                            filled.name = name
                            filled.description = description
                            filled.question = question
                            filled.colour = colour
                            filled.icon = icon
                            filled.position = display.position
                            return body(&filled)
                        }
                    }
                }
            }
        }
    }

    func create(_ store: OpaquePointer, _ name: String, _ display: Display) -> (Int32, Int64) {
        var id: Int64 = 0
        let status = withDisplay(defaults(hc_habit_options_init), name: name, display) { hc_habit_create(&id, store, &$0) }
        return (status, id)
    }

    func get(_ store: OpaquePointer, _ id: Int64) -> Display? {
        var habit: UnsafeMutablePointer<hc_habit>?
        guard hc_habit_get(&habit, store, id) == HC_OK, let habit else { return nil }
        defer { hc_habit_free(habit) }
        XCTAssertEqual(habit.pointee.struct_size, UInt32(MemoryLayout<hc_habit>.size))
        return Display(habit.pointee)
    }

    let meditate = Display(
        description: "Ten minutes,\n\teyes closed", question: "Did you meditate this morning?",
        colour: "#ff8F00", icon: "🧘 lotus", position: -3)

    func testCreatedHabitsGiveTheirFieldsBackByGetFindAndList() throws {
        let store = try open()
        defer { hc_store_close(store) }
        let (status, id) = create(store, "Meditate", meditate)
        ok(status)
        XCTAssertEqual(get(store, id), meditate, "kept as given, colour case included")
        var found: UnsafeMutablePointer<hc_habit>?
        ok(hc_habit_find(&found, store, "meditate"))
        XCTAssertEqual(found.map { Display($0.pointee) }, meditate)
        hc_habit_free(found)
        XCTAssertEqual(displays(store).map(\.display), [meditate])
        // Defaults: none of them, position 0; "" is none too.
        let plain = create(store, "Plain", Display(description: "", question: "", colour: "", icon: ""))
        ok(plain.0)
        XCTAssertEqual(get(store, plain.1), Display())
    }

    func testUpdateChangesOnlyTheNamedFields() throws {
        let store = try open()
        defer { hc_store_close(store) }
        let (status, id) = create(store, "Meditate", meditate)
        ok(status)
        let options = defaults(hc_habit_options_init)
        var expected = meditate
        let changes: [(UInt32, Display, (inout Display) -> Void)] = [
            (HC_HABIT_FIELD_COLOUR, Display(colour: "#00897B"), { $0.colour = "#00897B" }),
            (HC_HABIT_FIELD_QUESTION, Display(question: "Sat still?"), { $0.question = "Sat still?" }),
            (HC_HABIT_FIELD_DESCRIPTION, Display(), { $0.description = nil }),
            (HC_HABIT_FIELD_ICON, Display(icon: "bell"), { $0.icon = "bell" }),
            (HC_HABIT_FIELD_POSITION, Display(position: Int64.max), { $0.position = Int64.max }),
            (
                HC_HABIT_FIELD_ICON | HC_HABIT_FIELD_COLOUR, Display(),
                {
                    $0.icon = nil; $0.colour = nil
                }
            ),
        ]
        for (bits, values, change) in changes {
            ok(withDisplay(options, values) { hc_habit_update(store, id, &$0, bits) })
            change(&expected)
            XCTAssertEqual(get(store, id), expected, "bits 0x\(String(bits, radix: 16))")
        }
        // Other fields are left alone by display bits, and display fields by other bits.
        ok(withDisplay(options, name: "Sit", Display()) { hc_habit_update(store, id, &$0, HC_HABIT_FIELD_NAME) })
        XCTAssertEqual(get(store, id), expected)
    }

    func testBadValuesAreInvalidAndWriteNothing() throws {
        let store = try open()
        defer { hc_store_close(store) }
        let (status, id) = create(store, "Meditate", meditate)
        ok(status)
        let long = String(repeating: "é", count: 2049)  // 4098 bytes
        let bad: [(Display, UInt32, String)] = [
            (Display(colour: "red"), HC_HABIT_FIELD_COLOUR, "colour"),
            (Display(colour: "#12345"), HC_HABIT_FIELD_COLOUR, "colour"),
            (Display(colour: "#12345G"), HC_HABIT_FIELD_COLOUR, "colour"),
            (Display(colour: "FF8F00"), HC_HABIT_FIELD_COLOUR, "colour"),
            (Display(colour: "#FF8F00 "), HC_HABIT_FIELD_COLOUR, "colour"),
            (Display(colour: "#ＦＦ8F00"), HC_HABIT_FIELD_COLOUR, "colour"),
            (Display(description: long), HC_HABIT_FIELD_DESCRIPTION, "description"),
            (Display(description: "a\u{7}bell"), HC_HABIT_FIELD_DESCRIPTION, "description"),
            (Display(question: "two\nlines"), HC_HABIT_FIELD_QUESTION, "question"),
            (Display(question: String(repeating: "q", count: 501)), HC_HABIT_FIELD_QUESTION, "question"),
            (Display(icon: String(repeating: "i", count: 65)), HC_HABIT_FIELD_ICON, "icon"),
        ]
        for (display, bit, field) in bad {
            XCTAssertEqual(create(store, "Other", display).0, HC_E_INVALID, "\(display)")
            XCTAssertTrue(String(cString: hc_last_error_message()).hasPrefix(field), String(cString: hc_last_error_message()))
            XCTAssertEqual(withDisplay(defaults(hc_habit_options_init), display) { hc_habit_update(store, id, &$0, bit) }, HC_E_INVALID)
            XCTAssertTrue(String(cString: hc_store_errmsg(store)).contains(field), String(cString: hc_store_errmsg(store)))
        }
        XCTAssertEqual(displays(store).map(\.name), ["Meditate"], "no habit created")
        XCTAssertEqual(get(store, id), meditate, "nothing changed")
        // At the limits, accepted.
        ok(
            create(
                store, "Limits",
                Display(
                    description: String(repeating: "d", count: 4096), question: String(repeating: "q", count: 500),
                    colour: "#aBcDeF", icon: String(repeating: "i", count: 64))
            ).0)
    }

    /// A caller compiled against 1.0 passes the smaller struct: what follows it in its
    /// memory is not read, its habits have none of the fields, and it cannot name them.
    func testA10CallersSmallerOptionsStillWork() throws {
        let store = try open()
        defer { hc_store_close(store) }
        let oldSize = MemoryLayout<hc_habit_options>.offset(of: \hc_habit_options.description) ?? 0
        XCTAssertGreaterThan(oldSize, 0)
        XCTAssertLessThan(oldSize, MemoryLayout<hc_habit_options>.size)
        // The old struct in a buffer whose bytes past it are garbage (0xAB), as a 1.0 caller's stack may be.
        let raw = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<hc_habit_options>.size, alignment: 8)
        defer { raw.deallocate() }
        raw.initializeMemory(as: UInt8.self, repeating: 0xAB, count: MemoryLayout<hc_habit_options>.size)
        let options = raw.bindMemory(to: hc_habit_options.self, capacity: 1)
        ok(hc_habit_options_init(options, UInt32(oldSize)))
        XCTAssertEqual(options.pointee.struct_size, UInt32(oldSize))
        XCTAssertEqual(raw.load(fromByteOffset: oldSize, as: UInt8.self), 0xAB, "init never writes past the caller's size")
        var id: Int64 = 0
        "Old caller".withCString { name in
            options.pointee.name = name
            ok(hc_habit_create(&id, store, options))
        }
        XCTAssertEqual(get(store, id), Display(), "no display fields read from past the old size")
        "Renamed".withCString { name in
            options.pointee.name = name
            ok(hc_habit_update(store, id, options, HC_HABIT_FIELD_NAME))
            XCTAssertEqual(hc_habit_update(store, id, options, HC_HABIT_FIELD_COLOUR), HC_E_INVALID, "1.0's struct has no colour")
            XCTAssertTrue(String(cString: hc_store_errmsg(store)).contains("struct_size"), String(cString: hc_store_errmsg(store)))
        }
        XCTAssertEqual(displays(store).map(\.name), ["Renamed"])
        // A size below 1.0's, or between the old and the new, is not a real one.
        XCTAssertEqual(hc_habit_options_init(options, UInt32(oldSize - 4)), HC_E_INVALID)
        options.pointee.struct_size = UInt32(oldSize + 8)
        XCTAssertEqual(hc_habit_create(&id, store, options), HC_E_INVALID)
    }

    func testTheStoresExportAndImportKeepThem() throws {
        let store = try open()
        defer { hc_store_close(store) }
        ok(create(store, "Meditate", meditate).0)
        ok(create(store, "Plain", Display()).0)
        for format in [HC_FORMAT_JSON, HC_FORMAT_JSONL] {
            let text = export(store, format)
            XCTAssertTrue(text.contains("\"colour\":\"#ff8F00\""), text)
            let other = try open("copy-\(format).db")
            ok(hc_store_import(other, text, format))
            XCTAssertEqual(displays(other).map(\.display), [meditate, Display()], "format \(format)")
            XCTAssertEqual(export(other, format), text, "export, import into a new store, export: the same document")
            ok(hc_store_close(other))
        }
        // A document with a bad colour is refused whole.
        let bad = export(store, HC_FORMAT_JSON).replacingOccurrences(of: "#ff8F00", with: "orange")
        let other = try open("bad.db")
        XCTAssertEqual(hc_store_import(other, bad, HC_FORMAT_JSON), HC_E_INVALID)
        XCTAssertTrue(String(cString: hc_store_errmsg(other)).hasPrefix("habits[0]: colour"), String(cString: hc_store_errmsg(other)))
        XCTAssertEqual(displays(other).count, 0)
        ok(hc_store_close(other))
    }

    /// A store of schema 12 (before the fields) migrates: its habits have none, and take them.
    func testASchema12StoreMigratesToTheDisplayColumns() throws {
        var store = try open()
        let id = createHabit(store, "Old habit")
        ok(hc_store_close(store))
        XCTAssertSucceeded(try runProcess(["sqlite3", dir + "/store.db", dropSyncSQL + dropHabitDisplaySQL + "PRAGMA user_version = 12;"]), "back to 12")
        store = try open()
        defer { hc_store_close(store) }
        var version: Int32 = 0
        ok(hc_store_schema_version(&version, store))
        XCTAssertEqual(version, latestSchemaVersion)
        XCTAssertEqual(get(store, id), Display())
        ok(withDisplay(defaults(hc_habit_options_init), Display(colour: "#112233")) { hc_habit_update(store, id, &$0, HC_HABIT_FIELD_COLOUR) })
        XCTAssertEqual(get(store, id), Display(colour: "#112233"))
    }
}
