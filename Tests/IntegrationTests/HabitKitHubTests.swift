import CHabitCore
import Foundation
import HabitKit
import XCTest

/// HabitKit's Hub: libhabitcore_hub.so.1 loaded at run time, against the PostgreSQL
/// server HubTestCase starts.
final class HabitKitHubTests: HubTestCase {
    /// The built hub library, found from the test binary up as habitctl is.
    private var hubLibraryPath: String {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: dir.path + "/" + HubLibrary.fileName), dir.path != "/" { dir = dir.deletingLastPathComponent() }
        return dir.path + "/" + HubLibrary.fileName
    }

    func testLoadingRefusesAMissingOrForeignLibrary() throws {
        expect(.io) { _ = try HubLibrary.load(searching: [dir + "/nowhere/" + HubLibrary.fileName]) }
        let foreign = (hubLibraryPath as NSString).deletingLastPathComponent + "/libhabitcore.so"
        expect(.corrupt) { _ = try HubLibrary.load(searching: [foreign]) }
        let library = try HubLibrary.load(searching: [dir + "/nowhere.so", hubLibraryPath])
        XCTAssertEqual(library.path, hubLibraryPath, "the first path that loads")
    }

    func testAdminUsersStatusReferralsAndSyncThroughHabitKit() throws {
        let library = try HubLibrary.load(searching: [hubLibraryPath])
        let server = try server
        let admin = try Hub(conninfo: server.adminConninfo, library: library)
        XCTAssertGreaterThan(try admin.initialise(), 0)
        try admin.addUser(name: "kit_carol", password: "carol-pw")
        expect(.conflict) { try admin.addUser(name: "kit_carol", password: "x") }
        expect(.invalid) { try admin.addUser(name: "Not A Role", password: "x") }
        expect(.io) { _ = try Hub(conninfo: server.conninfo("kit_carol", "wrong"), library: library) }

        let carol = try Hub(conninfo: server.conninfo("kit_carol", "carol-pw"), library: library)
        let empty = try carol.status()
        XCTAssertGreaterThan(empty.schemaVersion, 0)
        XCTAssertEqual(empty.records, 0)
        expect(.io) { try carol.addUser(name: "kit_dave", password: "x") }

        // This test process builds the engine in; the hub library reaches stores through
        // the libhabitcore.so.1 it links, where this store's handle is unknown: a clear
        // .misuse, never a crash. (HubCLITests syncs through Hub.sync for real: habitctl's
        // stores are open in libhabitcore.so.1.)
        let store = try HabitKit.Store(path: dir + "/phone.db")
        try store.append(EntryInput(habitID: try store.createHabit(HabitOptions(name: "Read"))))
        expect(.misuse) { try carol.sync(store) }
        expect(.misuse) { try carol.sync(store, direction: .pull, actAs: "kit_carol") }
        XCTAssertEqual(try carol.status().records, 0, "nothing pushed")

        try carol.registerReferral(code: "KIT-CAROL")
        expect(.notFound) { try carol.redeemReferral(code: "NO-SUCH-CODE") }
        expect(.conflict) { try carol.redeemReferral(code: "KIT-CAROL") }
        expect(.invalid) { try carol.registerReferral(code: "x") }
        XCTAssertEqual(try carol.status().referralCodes, 1)
        try admin.addUser(name: "kit_erin", password: "erin-pw")
        let erin = try Hub(conninfo: server.conninfo("kit_erin", "erin-pw"), library: library)
        try erin.redeemReferral(code: "KIT-CAROL")
        XCTAssertTrue(try erin.status().referralRedeemed)
        XCTAssertEqual(try carol.status().referralsMade, 1)
        try carol.close()
        expect(.misuse) { _ = try carol.status() }
    }
}
