import HabitCore

/// The store revision and the change log under it. Every write that matters logs an
/// op in sync_ops (SyncStore); change_log numbers the ops in the order this file
/// received them, its own and other replicas' alike, so the revision is one integer
/// that grows with every such commit of any process. sync_ops has no rowid of its own
/// (WITHOUT ROWID, keyed by replica and sequence number), hence the table.
extension Store {
    /// The highest revision: max(rev), one step down the table's b-tree, no write.
    package func revision() throws(HabitError) -> Int64 {
        try db.statement("SELECT coalesce(max(rev), 0) FROM change_log").one { $0.int(0) } ?? 0
    }

    /// The ops logged after a revision, oldest first: an op the log no longer holds
    /// under its number (its replica renumbered by a fork) comes back as nil.
    package func loggedOps(after revision: Int64, limit: Int64) throws(HabitError) -> [(revision: Int64, op: RawOp?)] {
        let statement = try db.statement(
            """
            SELECT c.rev, r.replica, o.seq, o.hlc, o.kind, o.payload FROM change_log c
            LEFT JOIN sync_ops o ON o.rep = c.rep AND o.seq = c.seq LEFT JOIN sync_replicas r ON r.num = o.rep
            WHERE c.rev > ?1 ORDER BY c.rev LIMIT ?2
            """)
        statement.bind(1, revision)
        statement.bind(2, limit)
        return try statement.all { (s) throws(HabitError) -> (revision: Int64, op: RawOp?) in
            guard !s.isNull(1), let seq = s.optionalInt(2) else { return (s.int(0), nil) }
            let replica = s.blob(1)
            guard let kind = UInt8(exactly: s.int(4)) else { throw .corrupt("op \(seq) has kind \(s.int(4))") }
            return (s.int(0), RawOp(id: GlobalId(replica: replica, seq: seq, stamp: s.int(3)), hlc: s.int(3), kind: kind, payload: s.blob(5)))
        }
    }

    /// Numbers an op just inserted into sync_ops: both inserts of the log (logLocal,
    /// insertReceived) call it in the op's transaction (a statement, not a trigger:
    /// a trigger's program cost twice as much an op). Ops move between numbers only in
    /// a fork's renumbering, which moves their change_log rows with them.
    func logChange(rep: Int64, seq: Int64) throws(HabitError) {
        let statement = try db.statement("INSERT INTO change_log(rep, seq) VALUES(?1, ?2)")
        statement.bind(1, rep)
        statement.bind(2, seq)
        try statement.run()
    }
}
