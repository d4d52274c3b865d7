import CHabitCore
import Foundation
import HabitExports
import XCTest

/// A test case with one store open on a real file, and the store's today (days
/// relative to it keep tests true on any date).
class OpenStoreTestCase: StoreTestCase {
    var store: OpaquePointer!
    var today: Int32 = 0

    override func setUpWithError() throws {
        try super.setUpWithError()
        store = try open()
        ok(hc_store_today(&today, store))
    }

    override func tearDown() {
        if let store { hc_store_close(store) }
        super.tearDown()
    }
}
