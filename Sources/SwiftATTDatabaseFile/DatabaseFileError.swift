import SwiftATTJSON

/// Why a database file cannot be served: where in the JSON (`services[1].characteristics[0].uuid`)
/// and what is wrong there, in words a user can act on.
public struct DatabaseFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The key path of the value at fault; empty for the document as a whole.
    public let path: String
    /// What is wrong there, in a sentence a user can act on.
    public let message: String

    /// An error saying `message` about the value at key path `path`.
    public init(_ message: String, at path: String) {
        self.path = path
        self.message = message
    }

    /// Text that is not JSON, located by line and column (1-based) rather than by the
    /// parser's character offset, as an editor shows them.
    init(_ error: JSONParseError, in text: String) {
        var line = 1
        var column = 1
        for character in text.prefix(error.offset) {
            if character == "\n" || character == "\r\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        self.init("not JSON: \(error.reason) at line \(line), column \(column)", at: "")
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
