import HabitFiles
import HabitPlatform

/// The files habitctl writes itself (sync --out, the heatmap's --svg, --loop's CSV
/// files) go through AtomicOutput, as the library's exports do: whole or not at all,
/// and to where the path points (a link's target; a device or FIFO written through).
enum FileOutput {
    /// Writes bytes to path, a new file getting `mode` (0600: a sync state, a changeset
    /// or an export holds the store's history).
    static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600) throws(CLIError) {
        do throws(AtomicOutput.Failure) {
            let output = try AtomicOutput(path: path, mode: mode)
            try output.write(bytes)
            try output.commit()
        } catch {
            switch error {
            case .missingFolder: throw CLIError(exitCode: 6, message: "cannot write \(path): no such folder")
            case .failed(let reason): throw CLIError(exitCode: 6, message: reason)
            }
        }
    }
}
