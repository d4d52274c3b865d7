/// "Did you mean …?": the closest of some known words to one that matched none.
enum Suggestion {
    /// The known word nearest to `word` (case ignored), if it is near enough to be a
    /// slip of the keyboard: at most one edit for short words, two from six letters on.
    static func closest(to word: String, among known: [String]) -> String? {
        let typed = Array(word.lowercased())
        guard !typed.isEmpty else { return nil }
        let limit = typed.count >= 6 ? 2 : 1
        var best: (word: String, distance: Int)?
        for candidate in known {
            let distance = editDistance(typed, Array(candidate.lowercased()))
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.word
    }

    /// Levenshtein distance counting a swap of two neighbours as one edit (the
    /// restricted Damerau form), so "stauts" is near "stats".
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { current[j] = min(current[j], before[j - 2] + 1) }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }

    /// " (did you mean 'x'?)" or "".
    static func hint(_ word: String, among known: [String]) -> String {
        closest(to: word, among: known).map { " (did you mean '\($0)'?)" } ?? ""
    }
}
