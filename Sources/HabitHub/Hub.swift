import CHabitCore
import CLibPQ
import HabitCore
import HabitPlatform

/// What one sync did.
package struct HubSyncResult: Equatable, Sendable {
    package var pushed: Int64 = 0
    package var pulled: Int64 = 0
    package var opsNew: Int64 = 0
    package init() {}
}

package struct HubStatus: Equatable, Sendable {
    package var schemaVersion: Int32 = 0
    package var records: Int64 = 0
    package var replicas: Int64 = 0
    package var referralCodes: Int64 = 0
    package var referralsMade: Int64 = 0
    package var referralRedeemed: Int64 = 0
    package init() {}
}

/// A store as the hub sees it: libhabitcore's sync calls through the C header, so
/// the store handle is the app's own (one engine, one lock per store).
package struct StoreSync {
    package let store: OpaquePointer

    package init(_ store: OpaquePointer) { self.store = store }

    private func failure(_ status: Int32) -> HabitError {
        HabitError(ErrorCode(rawValue: status) ?? .internal, "store: " + String(cString: hc_last_error_message()))
    }

    func state() throws(HabitError) -> [UInt8] {
        var count: Int64 = 0
        var status = hc_sync_state(nil, 0, &count, store)
        guard status == HC_OK else { throw failure(status) }
        var bytes = [UInt8](repeating: 0, count: Int(clamping: count))
        status = hc_sync_state(&bytes, count, &count, store)
        guard status == HC_OK else { throw failure(status) }
        return Array(bytes.prefix(Int(clamping: count)))
    }

    func changes(for peerState: [UInt8]) throws(HabitError) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var size: Int64 = 0
        let status = hc_sync_changes(&out, &size, store, peerState, Int64(peerState.count))
        defer { hc_free(out) }
        guard status == HC_OK else { throw failure(status) }
        guard let out, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: out, count: Int(clamping: size)))
    }

    func apply(_ changes: [UInt8]) throws(HabitError) -> Int64 {
        var summary = hc_sync_summary()
        summary.struct_size = UInt32(MemoryLayout<hc_sync_summary>.size)
        let status = hc_sync_apply(&summary, store, changes, Int64(changes.count))
        guard status == HC_OK else { throw failure(status) }
        return summary.ops_new
    }
}

/// One connection to a hub and what it does: push, pull, status, referrals, admin.
package final class Hub {
    private let db: PostgresConnection
    /// The login role: the user a device acts for.
    private var login: String = ""

    /// Rows sent per INSERT (6 parameters a row, well under PostgreSQL's 65,535).
    static let insertBatch = 500
    /// Records per changeset applied on a pull, so a first pull of a large history
    /// stays far below the changeset's size limit.
    static let applyBatch = 20_000

    package init(conninfo: String) throws(HabitError) {
        do throws(PostgresError) {
            db = try PostgresConnection(conninfo)
            login = try db.query("SELECT session_user::text").text(0, 0) ?? ""
        } catch {
            throw error.habitError
        }
    }

    @discardableResult
    private func run<T>(_ body: () throws(PostgresError) -> T) throws(HabitError) -> T {
        do throws(PostgresError) {
            try db.ensureConnected()
            if login.isEmpty { login = try db.query("SELECT session_user::text").text(0, 0) ?? "" }
            return try body()
        } catch {
            throw error.habitError
        }
    }

    package func initialise() throws(HabitError) -> Int32 {
        do throws(PostgresError) { try db.ensureConnected() } catch { throw error.habitError }
        return try HubSchema.migrate(db)
    }

    /// A hub user's name: also a role name, so only the characters that need no quoting.
    package static func validUserName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...63).contains(bytes.count), !name.hasPrefix("habitcore_"), !name.hasPrefix("pg_") else { return false }
        return bytes.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "_")
        }
    }

    package static func validCode(_ code: String) -> Bool {
        let bytes = Array(code.utf8)
        guard (4...64).contains(bytes.count) else { return false }
        return bytes.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
    }

    /// Admin: a login role for a device user or a service, member of one group role.
    /// The password travels as a SCRAM verifier computed here: the server never sees it.
    package func addUser(_ name: String, password: String, service: Bool) throws(HabitError) {
        guard Self.validUserName(name) else {
            throw .invalid("user name \"\(name)\": 1 to 63 of a-z, 0-9 and _, not starting with habitcore_ or pg_")
        }
        guard !password.isEmpty, password.utf8.count <= 1024, !password.utf8.contains(0) else { throw .invalid("password: 1 to 1024 bytes") }
        let verifier = try run { () throws(PostgresError) -> String in try db.scramVerifier(password: password, user: name) }
        // Role names cannot be parameters: name is checked above to need no quoting,
        // and the verifier is base64, $, : and digits only (checked).
        guard verifier.utf8.allSatisfy({ $0 > 32 && $0 < 127 && $0 != UInt8(ascii: "'") && $0 != UInt8(ascii: "\\") }) else {
            throw HabitError(.internal, "unexpected SCRAM verifier from libpq")
        }
        // INHERIT (the default), member of one group role and nothing else: the group's
        // grants are all the role holds. NOINHERIT would leave the grants usable only
        // after SET ROLE habitcore_device, where current_user is no longer the user and
        // the policies (session_user and current_user both the row's user) show nothing.
        let group = service ? "habitcore_service" : "habitcore_device"
        // A device's connection limit keeps one user from taking the server's connections.
        let limit = service ? "" : " CONNECTION LIMIT 16"
        try run { () throws(PostgresError) in
            try db.query(
                "CREATE ROLE \(name) LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS\(limit) PASSWORD '\(verifier)' IN ROLE \(group)")
        }
    }

    /// The user the statements act for, set for this transaction when a service acts.
    private func actingUser(_ actAs: String?) throws(PostgresError) -> String {
        guard let actAs else { return login }
        try db.query("SELECT set_config('habitcore.act_as', $1, true)", [.text(actAs)])
        return actAs
    }

    package func sync(_ store: StoreSync, push: Bool, pull: Bool, actAs: String?) throws(HabitError) -> HubSyncResult {
        if let actAs, !Self.validUserName(actAs) { throw .invalid("act_as \"\(actAs)\" is not a hub user name") }
        var result = HubSyncResult()
        // Pull first: a store whose replica forked (restored from an older copy, or
        // copied) finds it in what the hub holds and moves its branch (SyncFork) before
        // it pushes, so the hub is never sent a second op under one id.
        if pull {
            let (pulled, new) = try self.pull(store, actAs: actAs)
            result.pulled = pulled
            result.opsNew = new
        }
        if push { result.pushed = try self.push(store, actAs: actAs) }
        return result
    }

    /// The hub's version vector for user: per replica the highest seq below which it
    /// holds every record (a gap, left by a device that pushed ops it held beyond a
    /// gap of its own, is counted from the seqs themselves).
    private func hubState(_ user: String) throws(PostgresError) -> [UInt8] {
        let heads = try db.query("SELECT encode(replica, 'hex'), max_seq, records FROM habitcore.replica_heads WHERE user_name = $1", [.text(user)])
        var vector = VersionVector()
        for row in heads.rows.indices {
            guard let hex = heads.text(row, 0), let replica = SyncHex.decode(hex), let maxSeq = heads.int(row, 1), let count = heads.int(row, 2) else {
                throw PostgresError(sqlstate: "XX001", message: "hub: a replica head is not what it should be")
            }
            if maxSeq == count {
                vector.seen[replica] = maxSeq
            } else {
                let seqs = try db.query(
                    "SELECT seq FROM habitcore.current_records WHERE user_name = $1 AND replica = $2::bytea ORDER BY seq",
                    [.text(user), .bytes(replica)])
                vector.seen[replica] = SyncMerge.contiguousPrefix(seqs.rows.indices.compactMap { seqs.int($0, 0) })
            }
            let points = VersionVector.ladder(vector.seen[replica] ?? 0)
            let held = try stamps(user, replica, at: points)
            let ladder = points.compactMap { held[$0] }
            if ladder.count == points.count { vector.stamps[replica] = ladder }
        }
        return vector.encode()
    }

    /// The clock stamps and prefix digests (SyncFork.prefixShare) of the records the hub
    /// holds of a replica at some sequence numbers, each summed over the records up to it
    /// (a number above a gap sums fewer records than a store holding them all).
    private func stamps(_ user: String, _ replica: [UInt8], at seqs: [Int64]) throws(PostgresError) -> [Int64: OpStamp] {
        guard let top = seqs.max() else { return [:] }
        // The sum as a wrapping 64-bit one: numeric, reduced to two's complement.
        let rows = try db.query(
            """
            SELECT seq, hlc, (CASE WHEN total >= 9223372036854775808 THEN total - 18446744073709551616 ELSE total END)::int8 FROM (
                SELECT seq, hlc, ((sum(share) OVER (ORDER BY seq)) % 18446744073709551616 + 18446744073709551616) % 18446744073709551616 AS total
                FROM habitcore.current_records WHERE user_name = $1 AND replica = $2::bytea AND seq <= $3) sums
            WHERE seq = ANY($4::int8[])
            """,
            [.text(user), .bytes(replica), .int(top), .text("{" + seqs.map(String.init).joined(separator: ",") + "}")], binary: true)
        var result: [Int64: OpStamp] = [:]
        for row in rows.rows {
            guard row.count == 3, let seq = BinaryValue.int(row[0]), let hlc = BinaryValue.int(row[1]), let digest = BinaryValue.int(row[2])
            else { throw PostgresError(sqlstate: "XX001", message: "hub: a record is not what it should be") }
            result[seq] = OpStamp(hlc: hlc, digest: UInt64(bitPattern: digest))
        }
        return result
    }

    /// Sends every record the hub lacks in one transaction: a sync cut anywhere
    /// before COMMIT leaves the hub as it was, and records are keyed by global id.
    private func push(_ store: StoreSync, actAs: String?) throws(HabitError) -> Int64 {
        var storeError: HabitError?
        do throws(HabitError) {
            return try pushRecords(store, actAs: actAs, storeError: &storeError)
        } catch {
            throw storeError ?? error
        }
    }

    private func pushRecords(_ store: StoreSync, actAs: String?, storeError: inout HabitError?) throws(HabitError) -> Int64 {
        try run { () throws(PostgresError) -> Int64 in
            try db.transaction { () throws(PostgresError) -> Int64 in
                let user = try actingUser(actAs)
                let state = try hubState(user)
                var ops: [RawOp]
                do throws(HabitError) {
                    ops = try Changeset.decodeRaw(try store.changes(for: state))
                } catch {
                    storeError = error
                    throw PostgresError(sqlstate: "HC000", message: error.message)
                }
                // Moved branches are kept apart from the records (a move's id is its first record's).
                let moves = ops.filter { $0.kind == SyncOp.Kind.branchMoved.rawValue }
                ops.removeAll { $0.kind == SyncOp.Kind.branchMoved.rawValue }
                // (A move to its own replica says nothing: stores ignore it too.)
                for move in moves where move.payload != move.id.replica {
                    try db.query(
                        "INSERT INTO habitcore.moves (user_name, replica, from_seq, to_replica) VALUES ($1, $2::bytea, $3::int8, $4::bytea) ON CONFLICT DO NOTHING",
                        [.text(user), .bytes(move.id.replica), .int(move.id.seq), .bytes(move.payload)])
                }
                // One order for every writer: two devices pushing the same records
                // wait for each other instead of deadlocking.
                let sorted = ops.sorted { $0.id.replica == $1.id.replica ? $0.id.seq < $1.id.seq : $0.id.replica.lexicographicallyPrecedes($1.id.replica) }
                // Only an id the hub held before can hold two ops after (a store sends one op an id).
                let heads = try db.query("SELECT encode(replica, 'hex'), max_seq FROM habitcore.replica_heads WHERE user_name = $1", [.text(user)])
                var held: [[UInt8]: Int64] = [:]
                for row in heads.rows.indices {
                    if let hex = heads.text(row, 0), let replica = SyncHex.decode(hex), let max = heads.int(row, 1) { held[replica] = max }
                }
                let reused = sorted.filter { $0.id.seq <= held[$0.id.replica] ?? 0 }
                var inserted: Int64 = 0
                var start = 0
                while start < sorted.count {
                    let batch = sorted[start..<min(start + Self.insertBatch, sorted.count)]
                    var params: [SQLParam] = [.text(user)]
                    var values: [String] = []
                    for op in batch {
                        let n = params.count
                        values.append("($1, $\(n + 1)::bytea, $\(n + 2)::int8, $\(n + 3)::int8, $\(n + 4)::int2, $\(n + 5)::bytea)")
                        params += [.bytes(op.id.replica), .int(op.id.seq), .int(op.hlc), .int(Int64(op.kind)), .bytes(op.payload)]
                    }
                    let rows = try db.query(
                        "INSERT INTO habitcore.records (user_name, replica, seq, hlc, kind, payload) VALUES "
                            + values.joined(separator: ", ") + " ON CONFLICT DO NOTHING RETURNING replica, seq",
                        params, binary: true)
                    inserted += Int64(rows.rows.count)
                    // A record the hub held already (same id and stamp) must be the same op.
                    if rows.rows.count < batch.count {
                        let new = Set(
                            rows.rows.compactMap { row in
                                row.count == 2 ? row[0].flatMap { r in BinaryValue.int(row[1]).map { GlobalId(replica: r, seq: $0) } } : nil
                            })
                        for op in batch where !new.contains(op.id) {
                            let held = try db.query(
                                "SELECT kind, payload FROM habitcore.records WHERE user_name = $1 AND replica = $2::bytea AND seq = $3 AND hlc = $4",
                                [.text(user), .bytes(op.id.replica), .int(op.id.seq), .int(op.hlc)], binary: true)
                            guard let row = held.rows.first, row.count == 2,
                                BinaryValue.int(row[0]) != Int64(op.kind) || row[1] != op.payload
                            else { continue }
                            throw Self.forkNotSettled(op.id)
                        }
                    }
                    start += Self.insertBatch
                }
                // Two ops under one id that both stand (neither branch's move is held) are a
                // fork the store did not settle: refused whole, never dropped in silence.
                guard !reused.isEmpty else { return inserted }
                let clash = try db.query(
                    """
                    SELECT encode(r.replica, 'hex'), r.seq FROM habitcore.current_records r
                    JOIN unnest($2::text[], $3::int8[]) AS p(replica, seq) ON r.replica = decode(p.replica, 'hex') AND r.seq = p.seq
                    WHERE r.user_name = $1 GROUP BY r.replica, r.seq HAVING count(*) > 1 LIMIT 1
                    """,
                    [
                        .text(user), .text("{" + reused.map { SyncHex.encode($0.id.replica) }.joined(separator: ",") + "}"),
                        .text("{" + reused.map { String($0.id.seq) }.joined(separator: ",") + "}"),
                    ])
                if let hex = clash.text(0, 0), let replica = SyncHex.decode(hex), let seq = clash.int(0, 1) {
                    throw Self.forkNotSettled(GlobalId(replica: replica, seq: seq))
                }
                return inserted
            }
        }
    }

    private static func forkNotSettled(_ id: GlobalId) -> PostgresError {
        PostgresError(
            sqlstate: "HC001",
            message: "hub: the hub holds another record under \(id.text): that replica's history forked"
                + " (a store restored from an older copy, or copied); sync the store again to settle it")
    }

    /// Applies every record beyond the store's state. Nothing is written at the hub;
    /// the store's apply is idempotent, so a pull cut anywhere is simply run again.
    private func pull(_ store: StoreSync, actAs: String?) throws(HabitError) -> (Int64, Int64) {
        let vector = try VersionVector.decode(try store.state())
        let replicas = vector.seen.keys.sorted { $0.lexicographicallyPrecedes($1) }
        let (rows, moveRows) = try run { () throws(PostgresError) -> (SQLRows, SQLRows) in
            try db.transaction { () throws(PostgresError) -> (SQLRows, SQLRows) in
                let user = try actingUser(actAs)
                let moves = try db.query(
                    "SELECT replica, from_seq, to_replica FROM habitcore.moves WHERE user_name = $1 ORDER BY replica, from_seq, to_replica",
                    [.text(user)], binary: true)
                var from: [Int64] = []
                // Above what hub and store hold alike (a fork, if any, lies there: SyncFork).
                for replica in replicas {
                    let held = try stamps(user, replica, at: VersionVector.ladder(vector.seen[replica] ?? 0))
                    from.append(vector.sharedPrefix(of: replica) { held[$0] })
                }
                return (
                    try db.query(
                        """
                        SELECT r.replica, r.seq, r.hlc, r.kind, r.payload FROM habitcore.current_records r
                        WHERE r.user_name = $1 AND r.seq > coalesce(
                            (SELECT v.seen FROM unnest($2::text[], $3::int8[]) AS v(replica, seen)
                             WHERE decode(v.replica, 'hex') = r.replica), 0)
                        ORDER BY r.replica, r.seq
                        """,
                        [
                            .text(user), .text("{" + replicas.map(SyncHex.encode).joined(separator: ",") + "}"),
                            .text("{" + from.map(String.init).joined(separator: ",") + "}"),
                        ],
                        binary: true), moves
                )
            }
        }
        // The moves first: the records after them may name records by their old ids.
        guard !rows.rows.isEmpty else { return (0, 0) }
        var ops: [RawOp] = []
        ops.reserveCapacity(moveRows.rows.count + rows.rows.count)
        for row in moveRows.rows {
            guard row.count == 3, let replica = row[0], replica.count == GlobalId.replicaBytes, let from = BinaryValue.int(row[1]), let to = row[2]
            else { throw .corrupt("hub: a moved op is not what it should be") }
            ops.append(RawOp(id: GlobalId(replica: replica, seq: from), hlc: 0, kind: SyncOp.Kind.branchMoved.rawValue, payload: to))
        }
        for row in rows.rows {
            guard row.count == 5, let replica = row[0], replica.count == GlobalId.replicaBytes, let seq = BinaryValue.int(row[1]),
                let hlc = BinaryValue.int(row[2]), let kind = BinaryValue.int(row[3]).flatMap({ UInt8(exactly: $0) }), let payload = row[4]
            else { throw .corrupt("hub: a record is not what it should be") }
            ops.append(RawOp(id: GlobalId(replica: replica, seq: seq), hlc: hlc, kind: kind, payload: payload))
        }
        var new: Int64 = 0
        var start = 0
        while start < ops.count {
            new += try store.apply(Changeset.encode(raw: Array(ops[start..<min(start + Self.applyBatch, ops.count)])))
            start += Self.applyBatch
        }
        return (Int64(rows.rows.count), new)
    }

    package func status(actAs: String?) throws(HabitError) -> HubStatus {
        if let actAs, !Self.validUserName(actAs) { throw .invalid("act_as \"\(actAs)\" is not a hub user name") }
        return try run { () throws(PostgresError) -> HubStatus in
            var status = HubStatus()
            status.schemaVersion = try HubSchema.installedVersion(db)
            guard status.schemaVersion > 0 else { return status }
            return try db.transaction { () throws(PostgresError) -> HubStatus in
                let user = try actingUser(actAs)
                let rows = try db.query(
                    """
                    SELECT
                        (SELECT coalesce(sum(records), 0) FROM habitcore.replica_heads WHERE user_name = $1),
                        (SELECT count(*) FROM habitcore.replica_heads WHERE user_name = $1),
                        (SELECT count(*) FROM habitcore.referral_codes WHERE user_name = $1),
                        (SELECT count(*) FROM habitcore.referral_redemptions WHERE user_name = $1 AND side = 'referrer'),
                        (SELECT count(*) FROM habitcore.referral_redemptions WHERE user_name = $1 AND side = 'redeemer')
                    """, [.text(user)])
                status.records = rows.int(0, 0) ?? 0
                status.replicas = rows.int(0, 1) ?? 0
                status.referralCodes = rows.int(0, 2) ?? 0
                status.referralsMade = rows.int(0, 3) ?? 0
                status.referralRedeemed = rows.int(0, 4) ?? 0
                return status
            }
        }
    }

    package func registerReferral(_ code: String) throws(HabitError) {
        guard Self.validCode(code) else { throw .invalid("referral code \"\(code)\": 4 to 64 of A-Z, a-z, 0-9, _ and -") }
        switch try referral("register_referral", code) {
        case 0: return
        case 1: throw .conflict("another hub user holds the referral code \"\(code)\"")
        default: throw HabitError(.io, "the hub did not recognise this connection's role as a hub user")
        }
    }

    package func redeemReferral(_ code: String) throws(HabitError) {
        guard Self.validCode(code) else { throw .invalid("referral code \"\(code)\": 4 to 64 of A-Z, a-z, 0-9, _ and -") }
        switch try referral("redeem_referral", code) {
        case 0: return
        case 1: throw .notFound("no referral code \"\(code)\" at the hub")
        case 2: throw .conflict("\"\(code)\" is this user's own referral code")
        case 3: throw .conflict("this user already redeemed another referral code")
        default: throw HabitError(.io, "the hub did not recognise this connection's role as a hub user")
        }
    }

    /// One of the hub's referral functions, each call its own transaction: a code is
    /// answered only once its try is committed (6: recorded, call again), and a user's
    /// tries of the hour spent are HC_E_BUSY.
    private func referral(_ function: String, _ code: String) throws(HabitError) -> Int64 {
        for _ in 0..<3 {
            let outcome = try run { () throws(PostgresError) -> Int64 in
                try db.query("SELECT habitcore.\(function)($1)", [.text(code)]).int(0, 0) ?? -1
            }
            switch outcome {
            case 5:
                throw HabitError(
                    .busy, "this user looked up \(HubSchema.referralTries) referral codes in the last hour, the most the hub answers; try again later")
            case 6: continue
            default: return outcome
            }
        }
        throw HabitError(.io, "the hub did not answer the referral code (its try was not kept)")
    }
}

extension PostgresConnection {
    /// libpq's SCRAM-SHA-256 verifier for password (PQencryptPasswordConn).
    func scramVerifier(password: String, user: String) throws(PostgresError) -> String {
        guard let text = withConnection({ PQencryptPasswordConn($0, password, user, "scram-sha-256") }) else {
            throw PostgresError(sqlstate: "XX000", message: "could not compute the SCRAM verifier")
        }
        defer { PQfreemem(text) }
        return String(cString: text)
    }
}
