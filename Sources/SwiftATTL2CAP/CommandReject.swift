import SwiftATTCore

/// L2CAP_COMMAND_REJECT_RSP: the answer to a command the receiver will not carry out,
/// with the reason and the data that reason carries. Core 5.4 Vol 3 Part A §4.1.
///
/// It answers a request (never a response or another reject) and carries that request's
/// identifier: an unknown code or unparseable command gets `commandNotUnderstood`, a
/// Disconnection Request for a channel that is not open gets `invalidCIDInRequest`.
public enum CommandReject: Sendable, Hashable {
    /// The command's code is unknown, or it is not one this device takes (a response it
    /// did not ask for, a command its role does not accept).
    case commandNotUnderstood
    /// The command was longer than the rejecting device's signaling MTU, which it states.
    case signalingMTUExceeded(actualMTU: UInt16)
    /// The request named a channel the rejecting device does not have. `localCID` is the
    /// rejecting device's end (the request's Destination CID), `remoteCID` the other's.
    case invalidCIDInRequest(localCID: UInt16, remoteCID: UInt16)

    /// The signaling code that identifies this command.
    public static let code = LESignalingCode.commandReject

    /// Where the fields sit in the command's data.
    enum Field {
        static var reason: Range<Int> { 0..<2 }
        /// Reason Data: the actual MTU, or the local then the remote CID.
        static var actualMTU: Range<Int> { 2..<4 }
        static var localCID: Range<Int> { 2..<4 }
        static var remoteCID: Range<Int> { 4..<6 }
    }

    /// The Reason field: which of the three cases this is.
    public var reason: CommandRejectReason {
        switch self {
        case .commandNotUnderstood: return .commandNotUnderstood
        case .signalingMTUExceeded: return .signalingMTUExceeded
        case .invalidCIDInRequest: return .invalidCIDInRequest
        }
    }

    /// Decodes the command's data: the Reason, then exactly the data it carries.
    public init(parsing data: ArraySlice<UInt8>) throws(LESignalingDecodingError) {
        guard data.count >= Field.reason.count else {
            throw .invalidLength(code: Self.code, length: data.count, allowed: Self.code.allowedDataLengths)
        }
        let value = data.littleEndianUInt16(at: Field.reason)
        guard let reason = CommandRejectReason(rawValue: value) else {
            throw .reservedValue(code: Self.code, field: .reason, value: value)
        }
        try Self.code.requireLength(data, Field.reason.count + reason.dataLength)
        switch reason {
        case .commandNotUnderstood:
            self = .commandNotUnderstood
        case .signalingMTUExceeded:
            self = .signalingMTUExceeded(actualMTU: data.littleEndianUInt16(at: Field.actualMTU))
        case .invalidCIDInRequest:
            self = .invalidCIDInRequest(localCID: data.littleEndianUInt16(at: Field.localCID),
                                        remoteCID: data.littleEndianUInt16(at: Field.remoteCID))
        }
    }
}

extension CommandReject: ByteEncodable {
    public var encodedLength: Int { Field.reason.count + reason.dataLength }

    public func encode(into writer: inout ByteWriter) {
        writer.write(reason.rawValue)
        switch self {
        case .commandNotUnderstood:
            break
        case let .signalingMTUExceeded(actualMTU):
            writer.write(actualMTU)
        case let .invalidCIDInRequest(localCID, remoteCID):
            writer.write(localCID)
            writer.write(remoteCID)
        }
    }
}
