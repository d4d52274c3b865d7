import CHabitCore
import Foundation
import XCTest

@testable import HabitHub

/// Referral codes: the answers tell a user nothing of other users' codes beyond one
/// code looked up per try, ten tries an hour, and a try is committed before its
/// answer, so no rolled-back transaction takes it back.
final class HubReferralPrivacyTests: HubTestCase {
    func user(_ name: String) throws -> OpaquePointer {
        var admin: OpaquePointer?
        ok(hc_hub_open(&admin, try server.adminConninfo))
        defer { _ = hc_hub_close(admin) }
        ok(hc_hub_user_add(admin, name, name + "-pw", HC_HUB_USER_DEVICE), "add \(name)")
        var hub: OpaquePointer?
        ok(hc_hub_open(&hub, try server.conninfo(name, name + "-pw")))
        return try XCTUnwrap(hub)
    }

    func psql(_ name: String, _ sql: String) throws -> [String] {
        let result = try server.psql(name, name + "-pw", sql)
        XCTAssertFalse(result.stderr.contains("ERROR"), result.stderr)
        return result.stdout.split(separator: "\n").map(String.init)
    }

    func registerAlice(_ code: String) throws {
        let alice = try hub("alice")
        defer { _ = hc_hub_close(alice) }
        ok(hc_hub_referral_register(alice, code), "alice's code")
    }

    /// The tries name holds at the hub.
    func tries(_ name: String) throws -> Int64? {
        try admin().query("SELECT count(*) FROM habitcore_private.referral_tries WHERE user_name = $1", [.text(name)]).int(0, 0)
    }

    func testTriesAreRationedAndAnswerTheSameForKnownAndUnknownCodes() throws {
        try registerAlice("ALICE-KNOWN")
        let dave = try user("dave")
        defer { _ = hc_hub_close(dave) }
        let tries = HubSchema.referralTries
        for index in 0..<tries {
            XCTAssertEqual(hc_hub_referral_redeem(dave, "GUESS-\(index)"), HC_E_NOT_FOUND)
        }
        // The tries of the hour spent: an existing code and an unknown one answer alike.
        XCTAssertEqual(hc_hub_referral_redeem(dave, "ALICE-KNOWN"), HC_E_BUSY)
        XCTAssertEqual(hc_hub_referral_redeem(dave, "GUESS-MORE"), HC_E_BUSY)
        XCTAssertEqual(hc_hub_referral_register(dave, "ALICE-KNOWN"), HC_E_BUSY)
        XCTAssertTrue(String(cString: hc_hub_errmsg(dave)).contains("last hour"))
        // A code already tried this hour is answered again, as before.
        XCTAssertEqual(hc_hub_referral_redeem(dave, "GUESS-0"), HC_E_NOT_FOUND)
        XCTAssertEqual(try self.tries("dave"), Int64(tries))
    }

    func testAnswersAreGivenOnlyForCommittedTries() throws {
        try registerAlice("ALICE-ROLLBACK")
        let erin = try user("erin")
        defer { _ = hc_hub_close(erin) }
        // Inside a transaction a code is never answered: the try must be committed first.
        XCTAssertEqual(
            try psql(
                "erin",
                "BEGIN; SELECT habitcore.redeem_referral('ALICE-ROLLBACK'); SELECT habitcore.redeem_referral('ALICE-ROLLBACK'); SELECT habitcore.redeem_referral('NOBODYS-CODE'); ROLLBACK"
            ),
            ["6", "6", "6"])
        XCTAssertEqual(try psql("erin", "SELECT habitcore.redeem_referral('ALICE-ROLLBACK')"), ["6"], "the rolled-back try was not kept")
        // Committed, the try stays spent when the redemption it answers is rolled back.
        XCTAssertEqual(try psql("erin", "BEGIN; SELECT habitcore.redeem_referral('ALICE-ROLLBACK'); ROLLBACK"), ["0"])
        XCTAssertEqual(try tries("erin"), 1)
        XCTAssertEqual(try admin().query("SELECT count(*) FROM habitcore.referral_redemptions WHERE user_name = 'erin'").int(0, 0), 0)
        // Registering answers only through the function: a direct INSERT is refused.
        XCTAssertTrue(
            try server.psql("erin", "erin-pw", "INSERT INTO habitcore.referral_codes (user_name, code) VALUES ('erin', 'ALICE-ROLLBACK')").stderr.contains(
                "permission denied"))
        XCTAssertEqual(hc_hub_referral_register(erin, "ALICE-ROLLBACK"), HC_E_CONFLICT, "alice holds it: a try spent")
        XCTAssertEqual(try tries("erin"), 1, "the same code, the same try")
        ok(hc_hub_referral_register(erin, "ERIN-OWN"), "erin's code")
    }

    func testAfterRedeemingEveryOtherCodeAnswersTheSame() throws {
        try registerAlice("ALICE-ONCE")
        let bob = try hub("bob")
        defer { _ = hc_hub_close(bob) }
        ok(hc_hub_referral_register(bob, "BOB-EXISTS"), "bob's code")
        let frank = try user("frank")
        defer { _ = hc_hub_close(frank) }
        ok(hc_hub_referral_redeem(frank, "ALICE-ONCE"), "redeem")
        ok(hc_hub_referral_redeem(frank, "ALICE-ONCE"), "again")
        XCTAssertEqual(hc_hub_referral_redeem(frank, "BOB-EXISTS"), HC_E_CONFLICT)
        XCTAssertEqual(hc_hub_referral_redeem(frank, "NOBODY-HAS-IT"), HC_E_CONFLICT)
        XCTAssertEqual(String(cString: hc_hub_errmsg(frank)), "this user already redeemed another referral code")
        XCTAssertEqual(
            try tries("frank"), 1,
            "answers after the redemption look nothing up")
    }
}
