import SwiftATTCore

/// One command on the LE signaling channel (CID 0x0005): code, identifier, length, data.
/// Core 5.4 Vol 3 Part A §4.
///
/// The first step of decoding: the header checked, the data left as a view for
/// `LESignalingCommand` to decode. Kept separate so that a command whose data is
/// malformed still yields the identifier its answer must carry.
public struct LESignalingPacket: Sendable, Hashable, ByteEncodable {
    // The codes of `LESignalingCode`, as octets.
    /// `LESignalingCode.commandReject`'s octet.
    public static let commandReject: UInt8 = 0x01
    /// `LESignalingCode.connectionParameterUpdateRequest`'s octet.
    public static let connectionParameterUpdateRequest: UInt8 = 0x12
    /// `LESignalingCode.connectionParameterUpdateResponse`'s octet.
    public static let connectionParameterUpdateResponse: UInt8 = 0x13

    /// The command's code, as sent: possibly one this host does not know.
    public var code: UInt8
    /// Matches a response to its request; 0x00 is invalid.
    public var identifier: UInt8
    /// The command's data, as a view into the frame.
    public var data: ArraySlice<UInt8>

    /// A packet of `code`, `identifier` and `data`.
    public init(code: UInt8, identifier: UInt8, data: ArraySlice<UInt8>) {
        self.code = code
        self.identifier = identifier
        self.data = data
    }

    /// Why a signaling frame was not a command.
    public enum DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
        /// Shorter than the 4-octet header.
        case truncated(have: Int)
        /// The Length field disagrees with the data that came.
        case lengthMismatch(declared: Int, have: Int)

        public var description: String {
            switch self {
            case let .truncated(have): return "LE signaling command truncated: needs 4 bytes, has \(have)"
            case let .lengthMismatch(declared, have): return "LE signaling command: length says \(declared) bytes, \(have) present"
            }
        }
    }

    /// Parses one command (an LE signaling frame carries exactly one).
    public init(parsing bytes: ArraySlice<UInt8>) throws(DecodingError) {
        guard bytes.count >= 4 else { throw .truncated(have: bytes.count) }
        let length = Int(bytes.littleEndianUInt16(at: 2))
        guard bytes.count - 4 == length else { throw .lengthMismatch(declared: length, have: bytes.count - 4) }
        code = bytes.byte(at: 0)
        identifier = bytes.byte(at: 1)
        data = bytes.bytes(from: 4)
    }

    /// Code, identifier and the 2-octet length.
    public static let headerLength = 4

    public var encodedLength: Int { Self.headerLength + data.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(code)
        writer.write(identifier)
        writer.write(UInt16(truncatingIfNeeded: data.count))
        writer.write(data)
    }
}
