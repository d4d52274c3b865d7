// swift-tools-version:6.1
// A Swift app's view of habitcore: it depends on the package by URL and version, as any
// app adds a library, and uses HabitKit (the Swift API over include/habitcore.h).
// Point the URL at where you keep habitcore; Tests/IntegrationTests/PackageDependencyTests.swift
// builds this package against a tagged clone of the working tree.
import PackageDescription

let package = Package(
    name: "habit-flows",
    dependencies: [
        .package(url: "https://example.invalid/habitcore.git", from: "1.0.0"),
    ],
    targets: [
        .executableTarget(
            name: "habit-flows",
            dependencies: [.product(name: "HabitKit", package: "habitcore")]
        ),
    ]
)
