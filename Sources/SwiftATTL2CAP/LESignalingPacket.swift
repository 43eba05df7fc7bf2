import SwiftATTCore

/// One command on the LE signaling channel (CID 0x0005): code, identifier, length, data.
/// Core 5.4 Vol 3 Part A §4.
public struct LESignalingPacket: Sendable, Hashable, ByteEncodable {
    public static let commandReject: UInt8 = 0x01
    public static let connectionParameterUpdateRequest: UInt8 = 0x12
    public static let connectionParameterUpdateResponse: UInt8 = 0x13

    public var code: UInt8
    /// Matches a response to its request; 0x00 is invalid.
    public var identifier: UInt8
    public var data: ArraySlice<UInt8>

    public init(code: UInt8, identifier: UInt8, data: ArraySlice<UInt8>) {
        self.code = code
        self.identifier = identifier
        self.data = data
    }

    /// Why a signaling frame was not a command.
    public enum DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
        case truncated(have: Int)
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

    public var encodedLength: Int { 4 + data.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(code)
        writer.write(identifier)
        writer.write(UInt16(truncatingIfNeeded: data.count))
        writer.write(data)
    }
}

/// Connection Parameter Update Request: a peripheral asks the central for new
/// parameters. Core 5.4 Vol 3 Part A §4.20. Units as in HCI (1.25 ms, 10 ms).
public struct ConnectionParameterUpdateRequest: Sendable, Hashable {
    public var intervalMin: UInt16
    public var intervalMax: UInt16
    public var peripheralLatency: UInt16
    public var timeoutMultiplier: UInt16

    public init(intervalMin: UInt16, intervalMax: UInt16, peripheralLatency: UInt16, timeoutMultiplier: UInt16) {
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.peripheralLatency = peripheralLatency
        self.timeoutMultiplier = timeoutMultiplier
    }

    /// `nil` unless `data` is exactly 8 bytes.
    public init?(data: ArraySlice<UInt8>) {
        guard data.count == 8 else { return nil }
        intervalMin = data.littleEndianUInt16(at: 0)
        intervalMax = data.littleEndianUInt16(at: 2)
        peripheralLatency = data.littleEndianUInt16(at: 4)
        timeoutMultiplier = data.littleEndianUInt16(at: 6)
    }

    public var data: [UInt8] {
        var out: [UInt8] = []
        for v in [intervalMin, intervalMax, peripheralLatency, timeoutMultiplier] { out.append(littleEndian: v) }
        return out
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
