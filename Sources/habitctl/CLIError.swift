import HabitKit

/// A failure of the command line, with the exit code it ends with.
/// Exit codes (documented in `habitctl --help` and the README):
///   0 success; 1 internal error; 2 usage error; 3 not found; 4 conflict;
///   5 invalid input; 6 store unavailable (I/O, corrupt, busy, too new, read-only);
///   7 not enough credits; 8 the output could not be written (Writer.exitCode);
///   130 interrupted (Ctrl-C during a transfer, cancelled cleanly: TransferLine).
/// `proof submit` ends with its verdict's own codes instead (ProofCommands.verdictExitCode),
/// apart from these so a script can tell a rejected photo from a typo.
struct CLIError: Error {
    var exitCode: Int32
    var message: String

    static func usage(_ message: String) -> CLIError { CLIError(exitCode: 2, message: message) }
    static func invalid(_ message: String) -> CLIError { CLIError(exitCode: 5, message: message) }

    /// An exit code's name, as a JSON error names it.
    static func name(of exitCode: Int32) -> String {
        switch exitCode {
        case 2: "usage"
        case 3: "not_found"
        case 4: "conflict"
        case 5: "invalid"
        case 6: "store_unavailable"
        case 7: "insufficient_credits"
        case 8: "output_failed"
        case 130: "interrupted"
        default: "internal"
        }
    }

    /// The exit code for a library status.
    static func fromStatus(_ status: Int32, _ message: String) -> CLIError {
        let code: Int32
        switch HabitError.Code(rawValue: status) {
        case .notFound: code = 3
        case .conflict: code = 4
        case .invalid: code = 5
        case .io, .corrupt, .busy, .tooNew, .readOnly: code = 6
        case .insufficient: code = 7
        default: code = 1
        }
        return CLIError(exitCode: code, message: message)
    }
}

extension CLIError {
    /// A HabitKit error, with the exit code of its status.
    init(_ error: HabitError) {
        self = .fromStatus(error.code.rawValue, error.message)
    }
}
