// The shipped libhabitcore.so, and only it: this target holds no code, only the link
// settings of the library we ship (the version script that keeps every symbol but the
// header's local, and the SONAME). They are GNU-linker options and unsafe flags, so they
// live here, in a target no product an app depends on contains: HabitKit links
// HabitExports without them, and SwiftPM accepts it as a versioned dependency.
import HabitExports
