import CHabitCore

// The library's ABI version. hc_version_number, hc_version_string and the hc_<struct>_init
// functions are C (Sources/HabitStructDefaults), where the header's macros can be read.

@c @implementation
public func hc_abi_version() -> Int32 { HC_ABI_VERSION }
