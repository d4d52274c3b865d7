import HabitKit

print("habitcore \(HabitKitVersion.string), ABI \(HabitKitVersion.running) (built for \(HabitKitVersion.built))")
