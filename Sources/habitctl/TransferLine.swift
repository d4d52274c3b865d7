import HabitKit
import HabitPlatform

/// The progress of a long export or import: a line on stderr redrawn in place when
/// stderr is a terminal, cleared at the end; nothing at all otherwise. Ctrl-C during
/// the transfer cancels it through the library (the file or the store is left as it
/// was) instead of killing the process halfway.
final class TransferLine {
    private let label: String
    private let terminal = isatty(STDERR_FILENO) != 0
    private var shown = ""

    /// Set by the SIGINT handler; read by the progress callback.
    nonisolated(unsafe) private static var interrupted: sig_atomic_t = 0

    init(_ label: String) {
        self.label = label
    }

    /// Runs a transfer with this line as its progress, Ctrl-C as its cancel.
    func run(_ body: (@escaping TransferProgress) throws(HabitError) -> Void) throws(CLIError) {
        TransferLine.interrupted = 0
        let previous = signal(SIGINT) { _ in TransferLine.interrupted = 1 }
        defer {
            signal(SIGINT, previous)
            clear()
        }
        do throws(HabitError) {
            try body { [self] done, total in
                draw(done, total)
                return TransferLine.interrupted != 0
            }
        } catch {
            if error.code == .cancelled && TransferLine.interrupted != 0 {
                throw CLIError(exitCode: 130, message: "interrupted: nothing was written")
            }
            throw CLIError(error)
        }
    }

    private func draw(_ done: Int64, _ total: Int64) {
        guard terminal else { return }
        let percent = total > 0 ? Int(Double(done) / Double(total) * 100) : 100
        let text = "\(label): \(percent)%"
        guard text != shown else { return }
        Writer.standardError("\r" + text + String(repeating: " ", count: max(0, shown.count - text.count)))
        shown = text
    }

    private func clear() {
        guard terminal, !shown.isEmpty else { return }
        Writer.standardError("\r" + String(repeating: " ", count: shown.count) + "\r")
        shown = ""
    }
}
