import Foundation
// Makes habitctl link the library we ship, libhabitcore.so.1, instead of the
// engine's object files. SwiftPM does not order an in-package executable's link
// after the package's own dynamic product, so this command takes libhabitcore.so as
// its input: habitctl's sources wait for it, and so does its link. The command also
// gives the build folder its libhabitcore.so.1 link (the SONAME habitctl records).
import PackagePlugin

@main
struct ShippedLibrary: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let tool = try context.tool(named: "shipped-library-link").url
        // Plugin tools are built in the same folder as the products (debug or release).
        let buildFolder = tool.deletingLastPathComponent()
        let library = buildFolder.appendingPathComponent("libhabitcore.so")
        let generated = context.pluginWorkDirectoryURL.appendingPathComponent("ShippedLibrary.swift")
        return [
            .buildCommand(
                displayName: "Linking habitctl to libhabitcore.so.1",
                executable: tool,
                arguments: [buildFolder.path, generated.path],
                inputFiles: [library],
                outputFiles: [generated]
            )
        ]
    }
}
