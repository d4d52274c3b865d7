import CHabitCore
import HabitCore
import HabitEngine

// Awards (catalogue, evaluation, unlocks, progress), referrals and events.

enum CAward {
    /// An award for the C side: a rule, a value (progress only) and its unlock.
    static func fill(_ target: UnsafeMutablePointer<hc_award>, rule: AwardRule, value: Int64, unlock: AwardUnlock?) throws(HabitError) {
        var award = hc_award()
        award.struct_size = UInt32(MemoryLayout<hc_award>.size)
        award.metric = rule.metric.rawValue
        award.tier = rule.tier
        award.scope = rule.scope.code
        award.habit_id = rule.scope.habitId ?? 0
        award.threshold = rule.threshold
        award.value = value
        award.unlocked = unlock == nil ? 0 : 1
        award.unlocked_day = unlock?.day ?? dayNone
        award.unlocked_at_ms = unlock?.atMs ?? 0
        award.cause_kind = unlock?.causeKind.rawValue ?? 0
        award.cause_id = unlock?.causeId ?? 0
        award.cause_habit_id = unlock?.causeHabitId ?? 0
        target.initialize(to: award)
        do throws(HabitError) {
            target.pointee.id = try Convert.fieldString(rule.id)
            target.pointee.title = try Convert.fieldString(rule.title)
            target.pointee.description = try Convert.fieldString(rule.description)
            target.pointee.icon = try Convert.fieldString(rule.icon)
        } catch {
            clear(target)  // the list frees only whole elements
            throw error
        }
    }

    static func clear(_ award: UnsafeMutablePointer<hc_award>) {
        Convert.freeField(award.pointee.id)
        Convert.freeField(award.pointee.title)
        Convert.freeField(award.pointee.description)
        Convert.freeField(award.pointee.icon)
    }

    static func list(_ unlocks: [AwardUnlock]) throws(HabitError) -> OpaquePointer {
        let box = try AwardListBox(
            unlocks,
            fill: { (target, unlock) throws(HabitError) in
                try fill(target, rule: unlock.rule, value: 0, unlock: unlock)
            }, clear: clear)
        return Registry.retain(box, .awardList)
    }
}

/// What an hc_award_list / hc_event_list pointer stands for.
typealias AwardListBox = OwnedArray<hc_award>
typealias EventListBox = OwnedArray<hc_event>

@c @implementation
public func hc_award_catalog_load(_ store: OpaquePointer?, _ json: UnsafePointer<CChar>?) -> Int32 {
    withStore(store) { engine throws(HabitError) in try engine.loadAwardCatalogue(json: try Convert.string(json, "json")) }
}

@c @implementation
public func hc_award_catalog_reset(_ store: OpaquePointer?) -> Int32 {
    withStore(store) { engine throws(HabitError) in try engine.resetAwardCatalogue() }
}

@c @implementation
public func hc_award_catalog_json(_ out_json: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ store: OpaquePointer?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out_json, "out_json")
        out.pointee = try Convert.ownedString(AwardCatalogue.encode(try engine.awardCatalogue()))
    }
}

@c @implementation
public func hc_award_evaluate(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ store: OpaquePointer?, _ as_of: Int32) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out, "out")
        out.pointee = try CAward.list(try engine.evaluateAwards(asOf: try Convert.day(as_of, "as_of")))
    }
}

@c @implementation
public func hc_award_list_open_unlocked(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ store: OpaquePointer?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out, "out")
        out.pointee = try CAward.list(try engine.awardUnlocks())
    }
}

@c @implementation
public func hc_award_list_open_progress(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ store: OpaquePointer?, _ as_of: Int32) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out, "out")
        let progress = try engine.awardProgress(asOf: try Convert.day(as_of, "as_of"))
        let box = try AwardListBox(
            progress,
            fill: { (target, item) throws(HabitError) in
                try CAward.fill(target, rule: item.rule, value: item.value, unlock: item.unlock)
            }, clear: CAward.clear)
        out.pointee = Registry.retain(box, .awardList)
    }
}

@c @implementation
public func hc_award_list_count(_ out_count: UnsafeMutablePointer<Int64>?, _ list: OpaquePointer?) -> Int32 {
    ListHandle.count(out_count, list, .awardList, "award list: NULL, freed, or not from an hc_awards_* call", as: hc_award.self)
}

@c @implementation
public func hc_award_list_get(_ out: UnsafeMutablePointer<UnsafePointer<hc_award>?>?, _ list: OpaquePointer?, _ index: Int64) -> Int32 {
    ListHandle.get(out, list, index, .awardList, "award list: NULL, freed, or not from an hc_awards_* call")
}

@c @implementation
public func hc_award_list_free(_ list: OpaquePointer?) {
    ListHandle.free(list, .awardList, as: hc_award.self)
}

// MARK: Referrals

@c @implementation
public func hc_referral_code(_ out_code: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ store: OpaquePointer?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out_code, "out_code")
        out.pointee = try Convert.ownedString(try engine.referralCode())
    }
}

@c @implementation
public func hc_referral_redeem(_ out_id: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?, _ code: UnsafePointer<CChar>?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let id = try engine.redeemReferral(try Convert.string(code, "code"))
        out_id?.pointee = id
    }
}

// MARK: Events

@c @implementation
public func hc_event_list_read(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ store: OpaquePointer?, _ after_id: Int64, _ limit: Int64,
    _ flags: UInt32
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out, "out")
        try Convert.flags(flags, known: HC_EVENTS_ACK)
        let events = try engine.events(after: after_id, limit: limit, acknowledge: flags & HC_EVENTS_ACK != 0)
        let box = try EventListBox(
            events,
            fill: { (target, event) throws(HabitError) in
                target.initialize(
                    to: hc_event(
                        struct_size: UInt32(MemoryLayout<hc_event>.size), kind: event.kind.rawValue, id: event.id,
                        at_ms: event.atMs, day: event.day, acknowledged: event.acknowledged ? 1 : 0,
                        habit_id: event.habitId ?? 0, entry_id: event.entryId ?? 0, value: event.value, award_id: nil))
                target.pointee.award_id = try Convert.fieldString(event.awardId)
            }, clear: { Convert.freeField($0.pointee.award_id) })
        out.pointee = Registry.retain(box, .eventList)
    }
}

@c @implementation
public func hc_event_list_count(_ out_count: UnsafeMutablePointer<Int64>?, _ list: OpaquePointer?) -> Int32 {
    ListHandle.count(out_count, list, .eventList, "event list: NULL, freed, or not from hc_event_list_read", as: hc_event.self)
}

@c @implementation
public func hc_event_list_get(_ out: UnsafeMutablePointer<UnsafePointer<hc_event>?>?, _ list: OpaquePointer?, _ index: Int64) -> Int32 {
    ListHandle.get(out, list, index, .eventList, "event list: NULL, freed, or not from hc_event_list_read")
}

@c @implementation
public func hc_event_list_free(_ list: OpaquePointer?) {
    ListHandle.free(list, .eventList, as: hc_event.self)
}
