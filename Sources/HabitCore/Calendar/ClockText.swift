/// A minute of the day as people read it in messages.
package enum ClockText {
    /// HH:MM for minute 0...1440 (1440, an exclusive end, reads 24:00).
    package static func hhmm(_ minute: Int32) -> String {
        let hours = minute / 60, minutes = minute % 60
        return (hours < 10 ? "0" : "") + String(hours) + ":" + (minutes < 10 ? "0" : "") + String(minutes)
    }
}
