// What the platform can do, decided here: the code that needs a capability asks, and
// says so with an error (never a build failure) where it is missing. Child processes
// are decided in HabitPlugins/ChildProcess.swift, the one file that starts them (its
// calls do not compile on iOS).

/// Whether shared-object plugins load from any file (dlopen): Linux, macOS and Android
/// do; iOS and its siblings load only the app's own signed code, so there only
/// callback verifiers run.
#if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
    package let platformLoadsSharedObjectFiles = false
#else
    package let platformLoadsSharedObjectFiles = true
#endif

/// The platform's name, for the errors that say what it lacks.
package var platformName: String {
    #if os(iOS)
        "iOS"
    #elseif os(tvOS)
        "tvOS"
    #elseif os(watchOS)
        "watchOS"
    #elseif os(visionOS)
        "visionOS"
    #elseif os(macOS)
        "macOS"
    #elseif os(Android)
        "Android"
    #else
        "Linux"
    #endif
}
