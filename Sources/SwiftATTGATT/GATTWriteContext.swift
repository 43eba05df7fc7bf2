import SwiftATTPDU

/// What a write handler is told about the write it takes.
public struct GATTWriteContext: Sendable {
    /// How the value arrived. Core 5.4 Vol 3 Part F §3.4.5–§3.4.6.
    public enum Kind: Sendable, Hashable {
        /// Write Request: the client waits for the answer.
        case request
        /// Write Command (write without response): the answer is discarded.
        case command
        /// Signed Write Command: as `command`, after the signature checked out.
        case signedCommand
        /// Execute Write of prepared parts: a long write or a reliable write.
        case queued
    }

    /// The client writing.
    public let connection: GATTServer.ConnectionID
    /// The attribute being written.
    public let handle: UInt16
    /// Where `value` starts within the attribute value. For a value the server keeps
    /// (`GATTValue.bytes`) the handler sees the complete new value, so this is 0; for a
    /// `dynamic` value it is where the client's bytes go (a queued write joins the
    /// client's consecutive parts first).
    public let offset: Int
    /// The bytes written: the whole new value for a value the server keeps.
    public let value: [UInt8]
    /// How the value arrived.
    public let kind: Kind

    /// A write of `value` to `handle` by `connection`.
    public init(connection: GATTServer.ConnectionID, handle: UInt16, offset: Int, value: [UInt8], kind: Kind) {
        self.connection = connection
        self.handle = handle
        self.offset = offset
        self.value = value
        self.kind = kind
    }

    /// A command: nobody hears the handler's error.
    public var isCommand: Bool { kind == .command || kind == .signedCommand }
    /// Part of a long or reliable write (prepared, then executed).
    public var isQueued: Bool { kind == .queued }
}
