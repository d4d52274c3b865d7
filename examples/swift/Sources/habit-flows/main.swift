// Two apps' flows in HabitKit, on a store at the path given (default habit-flows.db).
import HabitKit

let path = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "habit-flows.db"

do {
    let store = try Store(path: path)
    let today = try store.today()

    // Zeno: steps earn screen minutes (100 steps a minute by default); a spend unlocks apps.
    let sync = try store.syncSteps(6_000)
    try store.spend(15, reason: "unlock social apps", unlock: true)
    print("Zeno: \(sync.steps) steps earned \(sync.earnedNow) minutes; spent 15 to unlock; balance \(try store.balance())")

    // MorningProof: a morning habit, kept the two days before by hand, and today by a
    // photo that a callback verifier (the app's own model) judges.
    var options = HabitOptions(name: "Make the bed")
    options.routine = .morning
    options.startDay = today.adding(-2)
    let bed = try store.createHabit(options)
    for back in [Int32(-2), -1] {
        try store.append(EntryInput(habitID: bed, day: today.adding(back)))
    }
    try store.registerVerifier(id: "bed-model", version: "1") { evidence in
        evidence.bytes.isEmpty
            ? VerifierVerdict(outcome: .rejected, confidence: 1, reasonCode: "empty")
            : VerifierVerdict(outcome: .approved, confidence: 0.95, reasonCode: "bed_made", message: "the bed looks made")
    }
    try store.setProofPolicy(ProofPolicy(verifiers: ["bed-model"]), habitID: bed)
    let photo: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x42] // the app's camera bytes
    let proof = try store.submitProof(ProofInput(habitID: bed, bytes: photo))
    let streaks = try store.streaks(habitID: bed)
    print("MorningProof: proof \(proof.outcome == .approved ? "approved" : "not approved") (\(proof.reasonCode)); streak \(streaks.current.length) days")
    try store.close()
} catch {
    print("habit-flows: \(error)")
}
