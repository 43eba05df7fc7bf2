import SwiftATTJSON

/// Why text is not a bond file: where in the JSON
/// (`identities["F0:F0:F0:F0:00:01"].bonds[2].centralKey.key`) and what is wrong there.
/// A message never quotes a key's value, so that an error in a log gives no key away.
public struct BondDocumentError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The path of the value at fault; empty for the text as a whole.
    public let path: String
    /// What is wrong there; never a key's value.
    public let message: String

    /// An error saying `message` about the value at path `path`.
    public init(_ message: String, at path: String) {
        self.path = path
        self.message = message
    }

    /// Text that is not JSON, located by line and column (1-based), as an editor shows them.
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
