// HabitKit against direct C calls, in one process, on the same store shape:
//   habitkit-bench MODE DIR [N]
// MODE: c-append | kit-append (N entries, one transaction), c-streaks | kit-streaks
// (N streak computations of a habit with ten years of entries), all (times, ratios).
// Built in release by bench/habitkit.sh, which also counts instructions (callgrind).
import CHabitCore
import HabitKit
import HabitPlatform

func die(_ what: String) -> Never {
    print("\(what): \(String(cString: hc_last_error_message()))")
    exit(1)
}

/// A fresh store with one counter habit; for streaks, ten years of daily entries.
func prepare(_ path: String, history: Bool) -> (HabitKit.Store, HabitID) {
    _ = unlink(path)
    do {
        let store = try HabitKit.Store(path: path)
        var options = HabitOptions(name: "bench", kind: .counter)
        options.target = 10
        options.startDay = Day(rawValue: 16000)
        let habit = try store.createHabit(options)
        if history {
            try store.transaction { () throws(HabitError) in
                for day in Int32(16000)..<16000 + 3650 where day % 7 != 3 {
                    try store.append(EntryInput(habitID: habit, kind: .amount, value: 10, day: Day(rawValue: day)))
                }
            }
        }
        return (store, habit)
    } catch {
        print("prepare: \(error)")
        exit(1)
    }
}

/// The raw handle of a HabitKit store's file, opened again for the C side.
func openC(_ path: String) -> OpaquePointer {
    var store: OpaquePointer?
    guard hc_store_open(&store, path, 0) == HC_OK, let store else { die("open") }
    return store
}

// The measured loops: separate, never inlined, so callgrind can count each alone
// (--toggle-collect) and the clock times only them.
@inline(never) func cAppendLoop(_ store: OpaquePointer, _ habit: HabitID, _ n: Int) {
    var entry = hc_entry_input()
    _ = hc_entry_input_init(&entry, UInt32(MemoryLayout<hc_entry_input>.size))
    entry.habit_id = habit.rawValue
    entry.kind = HC_ENTRY_AMOUNT
    entry.value = 1
    guard hc_store_begin(store) == HC_OK else { die("begin") }
    for i in 0..<n {
        entry.day = 16000 + Int32(i % 3650)
        guard hc_entry_append(nil, store, &entry) == HC_OK else { die("append") }
    }
    guard hc_store_commit(store) == HC_OK else { die("commit") }
}

@inline(never) func kitAppendLoop(_ store: HabitKit.Store, _ habit: HabitID, _ n: Int) {
    do {
        try store.transaction { () throws(HabitError) in
            for i in 0..<n {
                try store.append(EntryInput(habitID: habit, kind: .amount, value: 1, day: Day(rawValue: 16000 + Int32(i % 3650))))
            }
        }
    } catch {
        print("append: \(error)")
        exit(1)
    }
}

@inline(never) func cStreakLoop(_ store: OpaquePointer, _ habit: HabitID, _ n: Int) -> Int32 {
    var result = hc_streak_result()
    var runs: Int64 = 0
    var total: Int32 = 0
    for _ in 0..<n {
        _ = hc_streak_result_init(&result, UInt32(MemoryLayout<hc_streak_result>.size))
        guard hc_habit_streaks(&result, nil, 0, &runs, store, habit.rawValue, 16000 + 3649) == HC_OK else { die("streaks") }
        total &+= result.longest.length
    }
    return total
}

@inline(never) func kitStreakLoop(_ store: HabitKit.Store, _ habit: HabitID, _ n: Int) -> Int32 {
    var total: Int32 = 0
    do {
        for _ in 0..<n {
            total &+= try store.streaks(habitID: habit, asOf: Day(rawValue: 16000 + 3649)).longest.length
        }
    } catch {
        print("streaks: \(error)")
        exit(1)
    }
    return total
}

func seconds(_ body: () -> Void) -> Double {
    let elapsed = ContinuousClock().measure(body)
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// Sets up, runs one mode's loop, and gives the loop's time.
func run(_ mode: String, _ path: String, _ n: Int) -> Double {
    let (kit, habit) = prepare(path, history: mode.hasSuffix("streaks"))
    var time = 0.0
    var check: Int32 = 0
    switch mode {
    case "c-append", "c-streaks":
        try? kit.close()
        let store = openC(path)
        if mode == "c-append" {
            time = seconds { cAppendLoop(store, habit, n) }
        } else {
            time = seconds { check = cStreakLoop(store, habit, n) }
        }
        hc_store_close(store)
    case "kit-append":
        time = seconds { kitAppendLoop(kit, habit, n) }
    case "kit-streaks":
        time = seconds { check = kitStreakLoop(kit, habit, n) }
    default:
        print("unknown mode \(mode)")
        exit(2)
    }
    if mode.hasSuffix("streaks"), check == 0 { die("no streak") }
    return time
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    print("usage: habitkit-bench c-append|kit-append|c-streaks|kit-streaks|all DIR [N]")
    exit(2)
}
let path = arguments[2] + "/bench.habitcore"
let n = arguments.count > 3 ? Int(arguments[3]) ?? 1000 : 1000
if arguments[1] == "all" {
    // Best of five, alternating, so neither side keeps the warm cache; appends 20x n.
    var best: [String: Double] = [:]
    for _ in 0..<5 {
        for mode in ["c-append", "kit-append", "c-streaks", "kit-streaks"] {
            best[mode] = min(best[mode] ?? .infinity, run(mode, path, mode.hasSuffix("append") ? n * 20 : n))
        }
    }
    for kind in ["append", "streaks"] {
        let c = best["c-" + kind] ?? 0, kit = best["kit-" + kind] ?? 0
        let calls = kind == "append" ? n * 20 : n
        print("\(kind): \(calls) calls, C \((c * 1e9 / Double(calls)).rounded() / 1000) us/call, " +
              "HabitKit \((kit * 1e9 / Double(calls)).rounded() / 1000) us/call, ratio \((kit / c * 1000).rounded() / 1000)")
    }
} else {
    _ = run(arguments[1], path, n)
}
