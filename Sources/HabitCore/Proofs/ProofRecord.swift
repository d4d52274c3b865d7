/// A proof as recorded: what was submitted, for which habit day, and when.
package struct ProofRecord: Equatable, Sendable {
    package var id: Int64
    package var habitId: Int64
    package var day: Int32
    package var sha256: String
    package var size: Int64
    package var mediaType: String
    package var takenAtMs: Int64?
    package var receivedAtMs: Int64

    package init(
        id: Int64, habitId: Int64, day: Int32, sha256: String, size: Int64, mediaType: String, takenAtMs: Int64?,
        receivedAtMs: Int64
    ) {
        self.id = id
        self.habitId = habitId
        self.day = day
        self.sha256 = sha256
        self.size = size
        self.mediaType = mediaType
        self.takenAtMs = takenAtMs
        self.receivedAtMs = receivedAtMs
    }
}
