extension RandomAccessCollection {
    /// The index of the first element for which `isAfter` holds, in a collection where
    /// every element for which it fails comes before every one for which it holds
    /// (sorted arrays, and ranges of instants a zone's offset changes once in); endIndex
    /// if none holds. The one binary search every sorted lookup calls.
    @inlinable
    package func partitionPoint(where isAfter: (Element) -> Bool) -> Index {
        var low = startIndex, remaining = count
        while remaining > 0 {
            let half = remaining / 2, middle = index(low, offsetBy: half)
            if isAfter(self[middle]) {
                remaining = half
            } else {
                low = index(after: middle)
                remaining -= half + 1
            }
        }
        return low
    }
}
