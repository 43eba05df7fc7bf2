import SwiftATTCore

/// L2CAP_CREDIT_BASED_RECONFIGURE_RSP: the answer to a Credit Based Reconfigure
/// Request. Core 5.4 Vol 3 Part A §4.28.
public struct CreditBasedReconfigureResponse: Sendable, Hashable {
    /// The signaling code that identifies this command.
    public static let code = LESignalingCode.creditBasedReconfigureResponse

    /// What became of the request: success, or why it was refused.
    public var result: CreditBasedReconfigureResult

    /// An answer with `result`.
    public init(result: CreditBasedReconfigureResult) {
        self.result = result
    }

    /// Where the fields sit in the command's data.
    enum Field {
        static var result: Range<Int> { 0..<2 }
        static var length: Int { 2 }
    }

    /// Decodes the command's data: exactly a Result §4.28 defines.
    public init(parsing data: ArraySlice<UInt8>) throws(LESignalingDecodingError) {
        try Self.code.requireLength(data, Field.length)
        let value = data.littleEndianUInt16(at: Field.result)
        guard let result = CreditBasedReconfigureResult(rawValue: value) else {
            throw .reservedValue(code: Self.code, field: .result, value: value)
        }
        self.result = result
    }
}

extension CreditBasedReconfigureResponse: ByteEncodable {
    public var encodedLength: Int { Field.length }

    public func encode(into writer: inout ByteWriter) {
        writer.write(result.rawValue)
    }
}
