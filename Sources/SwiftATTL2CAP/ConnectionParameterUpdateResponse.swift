import SwiftATTCore

/// L2CAP_CONNECTION_PARAMETER_UPDATE_RSP: the central's answer to a peripheral's
/// Connection Parameter Update Request. Core 5.4 Vol 3 Part A §4.21.
public struct ConnectionParameterUpdateResponse: Sendable, Hashable {
    /// The signaling code that identifies this command.
    public static let code = LESignalingCode.connectionParameterUpdateResponse

    /// What became of the request: success, or why it was refused.
    public var result: ConnectionParameterUpdateResult

    /// An answer saying whether the central accepted the parameters.
    public init(result: ConnectionParameterUpdateResult) {
        self.result = result
    }

    /// Where the fields sit in the command's data.
    enum Field {
        static var result: Range<Int> { 0..<2 }
        static var length: Int { 2 }
    }

    /// Decodes the command's data: exactly the Result, which must be one §4.21 defines.
    public init(parsing data: ArraySlice<UInt8>) throws(LESignalingDecodingError) {
        try Self.code.requireLength(data, Field.length)
        let value = data.littleEndianUInt16(at: Field.result)
        guard let result = ConnectionParameterUpdateResult(rawValue: value) else {
            throw .reservedValue(code: Self.code, field: .result, value: value)
        }
        self.result = result
    }
}

extension ConnectionParameterUpdateResponse: ByteEncodable {
    public var encodedLength: Int { Field.length }

    public func encode(into writer: inout ByteWriter) {
        writer.write(result.rawValue)
    }
}
