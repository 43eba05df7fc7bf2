import SwiftATTCore

/// The Shortened or Complete Local Name: the device's name as UTF-8 bytes.
///
/// Core Specification Supplement Part A §1.2; Core 5.4 Vol 3 Part C §12.1 (Device Name).
/// A name never fails to decode: invalid UTF-8 is replaced by U+FFFD in `name`, flagged by
/// `isValidUTF8`, and the original bytes stay in `bytes`. A shortened name is a prefix of
/// the complete one, which a peer reads from the Device Name characteristic.
public struct LocalName: Hashable, Sendable, CustomStringConvertible {
    /// Complete (0x09) or shortened (0x08).
    public let isComplete: Bool
    /// The name as sent.
    public let bytes: ArraySlice<UInt8>

    @usableFromInline
    init(validated s: ADStructure) {
        isComplete = s.type == .completeLocalName
        bytes = s.data
    }

    /// The name a structure holds; `nil` when the structure is of another type.
    public init?(_ s: ADStructure) {
        guard s.type == .completeLocalName || s.type == .shortenedLocalName else { return nil }
        self.init(validated: s)
    }

    /// A name from text.
    public init(_ name: String, isComplete: Bool = true) {
        self.isComplete = isComplete
        bytes = Array(name.utf8)[...]
    }

    /// The name, with any invalid UTF-8 replaced by U+FFFD.
    public var name: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether the bytes are valid UTF-8.
    public var isValidUTF8: Bool { String(validating: bytes, as: UTF8.self) != nil }

    public var description: String { name }
}
