import CHabitCore
import HabitCore
import HabitEngine

// Quit habits: where one stands (relapses are entries, appended by hc_entry_append).

@c @implementation
public func hc_quit_status_get(_ out: UnsafeMutablePointer<hc_quit_status>?, _ store: OpaquePointer?, _ habit_id: Int64, _ at_ms: Int64) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let result = try Convert.result(out, "out")
        let status = try engine.quitStatus(habitId: habit_id, atMs: Convert.instant(at_ms))
        let best = status.bestClean > 0
        result.pointee = hc_quit_status(
            struct_size: UInt32(MemoryLayout<hc_quit_status>.size), as_of: status.asOf, at_ms: status.atMs,
            last_relapse_id: status.lastRelapse?.id ?? 0, last_relapse_ms: status.lastRelapse?.atMs ?? 0,
            last_relapse_day: status.lastRelapse?.day ?? dayNone, days_since: status.daysSince, since_ms: status.sinceMs,
            current_clean_days: status.currentClean, best_clean_days: status.bestClean,
            best_clean_first: best ? status.bestCleanFirst : dayNone, best_clean_last: best ? status.bestCleanLast : dayNone,
            clean_days: status.cleanDays, period: status.period.rawValue, period_first: status.periodFirst,
            period_last: status.periodLast, period_relapses: status.periodRelapses, allowance: status.allowed,
            over_allowance: status.isOver ? 1 : 0, periods_within: status.periodsWithin, week_relapses: status.weekRelapses,
            month_relapses: status.monthRelapses, relapses: status.relapses, relapse_amount: status.relapseAmount,
            saved: status.saved)
    }
}
