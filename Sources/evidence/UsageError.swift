/// The command line was used wrongly: an unknown option, a missing argument.
/// Printed with the command's usage line; exit code 64.
struct UsageError: Error, Equatable, CustomStringConvertible {
    var message: String
    /// The command whose usage line follows the message.
    var path: [String]

    var description: String { message }

    /// A misuse found by a command's `validate`, which `make` names the command of.
    init(message: String, path: [String] = []) {
        self.message = message
        self.path = path
    }

    /// "Missing expected argument '--reason <text>'.", as swift-argument-parser says it.
    static func missing(_ display: String, path: [String]) -> UsageError {
        UsageError(message: "Missing expected argument '\(display)'.", path: path)
    }
}
