import SwiftATTCore

/// L2CAP_CONNECTION_PARAMETER_UPDATE_REQ: a peripheral asks the central for new
/// connection parameters. Core 5.4 Vol 3 Part A §4.20. Units as in HCI (1.25 ms, 10 ms).
///
/// Only a central may accept it; a peripheral that receives one answers Command Reject
/// "command not understood" (`LESignalingResponder`).
public struct ConnectionParameterUpdateRequest: Sendable, Hashable {
    /// The signaling code that identifies this command.
    public static let code = LESignalingCode.connectionParameterUpdateRequest

    /// The least connection interval asked for, in 1.25 ms units.
    public var intervalMin: UInt16
    /// The greatest connection interval asked for, in 1.25 ms units.
    public var intervalMax: UInt16
    /// The connection events the peripheral may skip.
    public var peripheralLatency: UInt16
    /// The supervision timeout, in 10 ms units.
    public var timeoutMultiplier: UInt16

    /// A request for these parameters, in HCI's units.
    public init(intervalMin: UInt16, intervalMax: UInt16, peripheralLatency: UInt16, timeoutMultiplier: UInt16) {
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.peripheralLatency = peripheralLatency
        self.timeoutMultiplier = timeoutMultiplier
    }

    /// Where the fields sit in the command's data.
    enum Field {
        static var intervalMin: Range<Int> { 0..<2 }
        static var intervalMax: Range<Int> { 2..<4 }
        static var peripheralLatency: Range<Int> { 4..<6 }
        static var timeoutMultiplier: Range<Int> { 6..<8 }
        static var length: Int { 8 }
    }

    /// Decodes the command's data: exactly the four parameters. Any values decode;
    /// `isAcceptable` is the central's check.
    public init(parsing data: ArraySlice<UInt8>) throws(LESignalingDecodingError) {
        try Self.code.requireLength(data, Field.length)
        intervalMin = data.littleEndianUInt16(at: Field.intervalMin)
        intervalMax = data.littleEndianUInt16(at: Field.intervalMax)
        peripheralLatency = data.littleEndianUInt16(at: Field.peripheralLatency)
        timeoutMultiplier = data.littleEndianUInt16(at: Field.timeoutMultiplier)
    }

    /// The checks of Core 5.4 Vol 6 Part B §4.5.1 and Vol 4 Part E §7.8.18: interval
    /// 7.5 ms–4 s with min ≤ max, latency ≤ 499, timeout 100 ms–32 s and longer than
    /// (1 + latency) × interval max × 2.
    public var isAcceptable: Bool {
        guard (6...3200).contains(intervalMin), (6...3200).contains(intervalMax), intervalMin <= intervalMax,
              peripheralLatency <= 499, (10...3200).contains(timeoutMultiplier) else { return false }
        let timeoutMs = Int(timeoutMultiplier) * 10
        let neededMs = (1 + Int(peripheralLatency)) * Int(intervalMax) * 125 * 2 / 100
        return timeoutMs > neededMs
    }
}

extension ConnectionParameterUpdateRequest: ByteEncodable {
    public var encodedLength: Int { Field.length }

    public func encode(into writer: inout ByteWriter) {
        writer.write(intervalMin)
        writer.write(intervalMax)
        writer.write(peripheralLatency)
        writer.write(timeoutMultiplier)
    }
}
