import CHabitCore
import XCTest

extension StoreTestCase {
    /// An account's whole credit ledger on a store, in the order it was written, each
    /// entry read by `body` while the list that lends its reason is open.
    func creditEntries<T>(_ store: OpaquePointer, account: Int64 = 0, _ body: (hc_credit_entry) -> T) -> [T] {
        var list: OpaquePointer?
        ok(hc_credit_list_open(&list, store, account, day("0001-01-01"), day("9999-12-31")))
        defer { hc_credit_list_free(list) }
        var count: Int64 = 0
        ok(hc_credit_list_count(&count, list))
        return (0..<count).compactMap { index in
            var entry: UnsafePointer<hc_credit_entry>?
            ok(hc_credit_list_get(&entry, list, index))
            return entry.map { body($0.pointee) }
        }
    }
}

extension OpenStoreTestCase {
    /// An account's whole credit ledger, in the order it was written.
    func creditEntries(_ account: Int64 = 0) -> [hc_credit_entry] { creditEntries(store, account: account) { $0 } }
}
