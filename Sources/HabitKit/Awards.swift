import CHabitCore

/// An award: a catalogue rule, its progress, and its unlock if recorded (hc_award).
public struct Award: Sendable, Hashable, Identifiable {
    /// The award's id; it is unlocked at most once, ever.
    public var id: String
    /// Its title.
    public var title: String
    /// Its description.
    public var description: String
    /// The app's icon name.
    public var icon: String
    /// 1...10.
    public var tier: Int32
    /// What it measures.
    public var metric: AwardMetric
    /// Which habits.
    public var scope: AwardScope
    /// The habit of a .habit scope; nil otherwise.
    public var habitID: HabitID?
    /// The value that unlocks it.
    public var threshold: Int64
    /// awardProgress: the metric as of the day asked; else 0.
    public var value: Int64
    /// The day the threshold was crossed; nil while locked.
    public var unlockedDay: Day?
    /// When the unlock was recorded (UTC ms); 0 while locked.
    public var unlockedAtMs: Int64
    /// What crossed the threshold.
    public var cause: AwardCause
    /// The entry, credit entry, habit or referral that crossed it (which of them: `cause`);
    /// nil when none. A bare number, since its kind depends on `cause`.
    public var causeID: Int64?
    /// The habit whose history crossed it; nil when none.
    public var causeHabitID: HabitID?

    init(_ a: hc_award) {
        id = copied(a.id) ?? ""
        title = copied(a.title) ?? ""
        description = copied(a.description) ?? ""
        icon = copied(a.icon) ?? ""
        tier = a.tier
        metric = AwardMetric(rawValue: a.metric)
        scope = AwardScope(rawValue: a.scope)
        habitID = HabitID(nonZero: a.habit_id)
        threshold = a.threshold
        value = a.value
        unlockedDay = a.unlocked != 0 ? Day(rawValue: a.unlocked_day) : nil
        unlockedAtMs = a.unlocked_at_ms
        cause = AwardCause(rawValue: a.cause_kind)
        causeID = a.cause_id == 0 ? nil : a.cause_id
        causeHabitID = HabitID(nonZero: a.cause_habit_id)
    }
}

extension Store {
    /// Replaces the award catalogue with a JSON document (docs/FORMATS.md); unlocks
    /// already recorded stay (hc_award_catalog_load). Throws .invalid or .notFound
    /// naming the rule and field; nothing changes then.
    public func loadAwardCatalog(json: String) throws(HabitError) {
        let strings = CStrings()
        let text = try strings(json, "json")
        try withExtendedLifetime(strings) { () throws(HabitError) in
            try withHandle { store throws(HabitError) in try check(hc_award_catalog_load(store, text)) }
        }
    }

    /// Puts the built-in award catalogue back (hc_award_catalog_reset).
    public func resetAwardCatalog() throws(HabitError) {
        try withHandle { store throws(HabitError) in try check(hc_award_catalog_reset(store)) }
    }

    /// The award catalogue as a JSON document (hc_award_catalog_json).
    public func awardCatalogJSON() throws(HabitError) -> String {
        try withHandle { store throws(HabitError) in
            var text: UnsafeMutablePointer<CChar>?
            try check(hc_award_catalog_json(&text, store))
            defer { hc_free(text) }
            return text.map { String(cString: $0) } ?? ""
        }
    }

    /// Evaluates the catalogue as of a day (nil: today), records the awards newly
    /// unlocked and gives them (hc_award_evaluate). Throws .readOnly.
    @discardableResult
    public func evaluateAwards(asOf day: Day? = nil) throws(HabitError) -> [Award] {
        try awardList { (list, store) in hc_award_evaluate(&list, store, day?.rawValue ?? noDay) }
    }

    /// Every unlocked award in the order unlocked, as its rule was then
    /// (hc_award_list_open_unlocked).
    public func unlockedAwards() throws(HabitError) -> [Award] {
        try awardList { (list, store) in hc_award_list_open_unlocked(&list, store) }
    }

    /// Every award of the catalogue with its metric's value as of a day (nil: today)
    /// and its unlock when recorded; records nothing (hc_award_list_open_progress).
    public func awardProgress(asOf day: Day? = nil) throws(HabitError) -> [Award] {
        try awardList { (list, store) in hc_award_list_open_progress(&list, store, day?.rawValue ?? noDay) }
    }

    /// The awards of a list open calls, copied out before it is freed.
    private func awardList(_ open: (inout OpaquePointer?, OpaquePointer) -> Int32) throws(HabitError) -> [Award] {
        try withHandle { store throws(HabitError) in
            var list: OpaquePointer?
            try check(open(&list, store))
            defer { hc_award_list_free(list) }
            return try elements(of: list, { hc_award_list_count($0, $1) }, { hc_award_list_get($0, $1, $2) }, Award.init)
        }
    }

    /// This store's referral code, made on first use and then fixed
    /// (hc_referral_code). Throws .readOnly when none was made yet.
    public func referralCode() throws(HabitError) -> String {
        try withHandle { store throws(HabitError) in
            var code: UnsafeMutablePointer<CChar>?
            try check(hc_referral_code(&code, store))
            defer { hc_free(code) }
            return code.map { String(cString: $0) } ?? ""
        }
    }

    /// Records a code redeemed from someone else (case, spaces and dashes ignored)
    /// and gives the redemption's id (hc_referral_redeem). Throws .invalid, .conflict
    /// (redeemed already, or the store's own code).
    @discardableResult
    public func redeemReferral(code: String) throws(HabitError) -> RedemptionID {
        let strings = CStrings()
        let text = try strings(code, "code")
        return try withExtendedLifetime(strings) { () throws(HabitError) -> RedemptionID in
            try withHandle { store throws(HabitError) in
                var id: Int64 = 0
                try check(hc_referral_redeem(&id, store, text))
                return RedemptionID(id)
            }
        }
    }
}
