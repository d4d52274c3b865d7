/// The library's version, as hc_version_string reports it and verdicts record it.
package enum HabitCoreVersion {
    package static let text: StaticString = "0.3.0"
    package static var string: String { text.description }
}
