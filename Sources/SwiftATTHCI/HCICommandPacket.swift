import SwiftATTCore

/// An HCI command packet: opcode, parameter length, parameters.
/// Core 5.4 Vol 4 Part E §5.4.1.
public struct HCICommandPacket: Sendable, Hashable, ByteEncodable {
    /// The command's opcode.
    public var opcode: HCIOpcode
    /// The parameters, after the header.
    public var parameters: ArraySlice<UInt8>

    /// A command packet of `opcode` with `parameters`.
    public init(opcode: HCIOpcode, parameters: ArraySlice<UInt8>) {
        self.opcode = opcode
        self.parameters = parameters
    }

    /// Parses a packet without its H4 indicator.
    public init(parsing bytes: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        guard bytes.count >= 3 else { throw .truncated("HCI command header", need: 3, have: bytes.count) }
        let length = Int(bytes.byte(at: 2))
        guard bytes.count - 3 == length else {
            throw .lengthMismatch("HCI command packet", declared: length, have: bytes.count - 3)
        }
        opcode = HCIOpcode(rawValue: bytes.littleEndianUInt16(at: 0))
        parameters = bytes.bytes(from: 3)
    }

    /// Parameters longer than 255 octets cannot be sent; commands never build them.
    public var encodedLength: Int { 3 + parameters.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(opcode.rawValue)
        writer.write(UInt8(truncatingIfNeeded: parameters.count))
        writer.write(parameters)
    }
}

/// An HCI event packet: event code, parameter length, parameters.
/// Core 5.4 Vol 4 Part E §5.4.4.
public struct HCIEventPacket: Sendable, Hashable, ByteEncodable {
    /// The event code.
    public var code: UInt8
    /// The parameters, after the header.
    public var parameters: ArraySlice<UInt8>

    /// An event packet of `code` with `parameters`.
    public init(code: UInt8, parameters: ArraySlice<UInt8>) {
        self.code = code
        self.parameters = parameters
    }

    /// Parses a packet without its H4 indicator.
    public init(parsing bytes: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try Self.checkHeader(bytes)
        code = bytes.byte(at: 0)
        parameters = bytes.bytes(from: 2)
    }

    /// Checks the header of an event packet without its H4 indicator, as
    /// `init(parsing:)` does, without making the packet: a decoder that reads the code
    /// (offset 0) and the parameters (from offset 2) where they lie saves the value's
    /// slice, a retain and a release (the host's command answers, one per round trip).
    @inlinable
    public static func checkHeader(_ bytes: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        guard bytes.count >= 2 else { throw .truncated("HCI event header", need: 2, have: bytes.count) }
        let length = Int(bytes.byte(at: 1))
        guard bytes.count - 2 == length else {
            throw .lengthMismatch("HCI event packet", declared: length, have: bytes.count - 2)
        }
    }

    public var encodedLength: Int { 2 + parameters.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(code)
        writer.write(UInt8(truncatingIfNeeded: parameters.count))
        writer.write(parameters)
    }
}
