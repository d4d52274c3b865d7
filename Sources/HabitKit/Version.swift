import CHabitCore

/// The library HabitKit was built against and the one it runs.
public enum HabitKitVersion {
    /// The ABI version HabitKit was written against (`HC_ABI_VERSION` of its header).
    public static let built: Int32 = HC_ABI_VERSION
    /// The ABI version of the running library (`hc_abi_version()`).
    public static var running: Int32 { hc_abi_version() }
    /// The library's version as text (`HC_VERSION_STRING`), e.g. "1.0.0".
    public static let string: String = HC_VERSION_STRING
}
