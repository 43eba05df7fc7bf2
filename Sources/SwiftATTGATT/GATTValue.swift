import SwiftATTPDU

/// Computes a value when a client reads it: the whole value (the server applies the
/// offset and truncation), or the ATT error to answer with.
public typealias GATTReadHandler = @Sendable (GATTReadContext) -> Result<[UInt8], ATTErrorCode>

/// Takes a value a client wrote: `nil` to accept it, or the ATT error to answer with (an
/// application error 0x80–0x9F, Value Not Allowed, …). Ignored for commands.
public typealias GATTWriteHandler = @Sendable (GATTWriteContext) -> ATTErrorCode?

// `Result` needs an `Error`; ATTErrorCode is a plain value type in the codec, and the
// read callbacks' signature is `Result<[UInt8], ATTErrorCode>`.
extension ATTErrorCode: Error {}

/// Where a characteristic's or descriptor's value comes from.
///
/// Either the server keeps the bytes (`bytes`: reads return them, writes replace them and
/// `GATTServer.update` changes them), or the application computes them on demand
/// (`dynamic`). Handlers run synchronously on the server's loop. Core 5.4 Vol 3 Part F
/// §3.2.9 bounds every value to 512 octets; `length` narrows that per attribute.
public struct GATTValue: Sendable {
    /// How long the value may be.
    public enum Length: Sendable, Hashable {
        /// Any length up to `maximum` octets (at most 512).
        case variable(maximum: Int)
        /// Always exactly this many octets: shorter writes change only their part
        /// (Part F §3.4.5.1) and Read Blob may answer Attribute Not Long.
        case fixed(Int)

        /// Any length up to the ATT limit.
        public static let upTo512 = Length.variable(maximum: ATTLimits.maximumAttributeValueLength)

        /// The longest value allowed.
        public var maximum: Int {
            switch self {
            case let .variable(m): return m
            case let .fixed(n): return n
            }
        }
    }

    enum Source: Sendable {
        case stored(initial: [UInt8], onWrite: GATTWriteHandler?)
        case dynamic(read: GATTReadHandler?, write: GATTWriteHandler?)
        // The GATT service's own values, which the server computes per connection.
        case serviceChanged
        case clientSupportedFeatures
        case databaseHash
    }

    let source: Source
    /// How long the value may be.
    public let length: Length

    init(source: Source, length: Length) {
        self.source = source
        self.length = length
    }

    /// A value the server keeps, starting as `initial`. Writes replace it (after
    /// `onWrite`, if given, accepts them: it sees the complete new value at offset 0).
    public static func bytes(_ initial: [UInt8], length: Length = .upTo512, onWrite: GATTWriteHandler? = nil) -> GATTValue {
        GATTValue(source: .stored(initial: initial, onWrite: onWrite), length: length)
    }

    /// A value the server keeps that is always `initial.count` octets long.
    public static func fixed(_ initial: [UInt8], onWrite: GATTWriteHandler? = nil) -> GATTValue {
        bytes(initial, length: .fixed(initial.count), onWrite: onWrite)
    }

    /// UTF-8 text the server keeps.
    public static func text(_ text: String, length: Length = .upTo512, onWrite: GATTWriteHandler? = nil) -> GATTValue {
        bytes(Array(text.utf8), length: length, onWrite: onWrite)
    }

    /// A value the application computes: `read` on every read (not readable without it),
    /// `write` on every write (not writable without it).
    public static func dynamic(length: Length = .upTo512, read: GATTReadHandler? = nil, write: GATTWriteHandler? = nil) -> GATTValue {
        GATTValue(source: .dynamic(read: read, write: write), length: length)
    }

    /// Whether the source can produce a value and accept one at all.
    var canRead: Bool {
        if case .dynamic(nil, _) = source { return false }
        if case .serviceChanged = source { return false }
        return true
    }

    var canWrite: Bool {
        switch source {
        case .dynamic(_, let write): return write != nil
        case .serviceChanged, .databaseHash: return false
        case .stored, .clientSupportedFeatures: return true
        }
    }
}
