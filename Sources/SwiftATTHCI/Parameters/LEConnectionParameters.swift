import SwiftATTCore

/// The connection parameters a central asks for when it creates or updates a connection:
/// the same six fields, in the same order, in LE Create Connection, LE Connection Update
/// and each PHY of LE Extended Create Connection. Core 5.4 Vol 4 Part E §7.8.12.
///
/// Values are the spec's raw units; the `…Milliseconds` properties convert.
public struct LEConnectionParameters: Sendable, Hashable {
    /// Connection_Interval_Min, in units of 1.25 ms (0x0006–0x0C80: 7.5 ms–4 s).
    public var intervalMin: UInt16
    /// Connection_Interval_Max, in units of 1.25 ms.
    public var intervalMax: UInt16
    /// Max_Latency: connection events the peripheral may skip (0x0000–0x01F3).
    public var maxLatency: UInt16
    /// Supervision_Timeout, in units of 10 ms (0x000A–0x0C80: 100 ms–32 s).
    public var supervisionTimeout: UInt16
    /// Min_CE_Length, a hint, in units of 0.625 ms.
    public var minCELength: UInt16
    /// Max_CE_Length, a hint, in units of 0.625 ms.
    public var maxCELength: UInt16

    /// Parameters in the spec's units: 1.25 ms intervals, 10 ms timeout, 0.625 ms event lengths.
    public init(intervalMin: UInt16, intervalMax: UInt16, maxLatency: UInt16, supervisionTimeout: UInt16,
                minCELength: UInt16 = 0, maxCELength: UInt16 = 0) {
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.maxLatency = maxLatency
        self.supervisionTimeout = supervisionTimeout
        self.minCELength = minCELength
        self.maxCELength = maxCELength
    }

    /// Octets on the wire.
    public static let encodedLength = 12

    /// `intervalMin` in milliseconds.
    public var intervalMinMilliseconds: Double { Double(intervalMin) * 1.25 }
    /// `intervalMax` in milliseconds.
    public var intervalMaxMilliseconds: Double { Double(intervalMax) * 1.25 }
    /// `supervisionTimeout` in milliseconds.
    public var supervisionTimeoutMilliseconds: Double { Double(supervisionTimeout) * 10 }
    /// `minCELength` in milliseconds.
    public var minCELengthMilliseconds: Double { Double(minCELength) * 0.625 }
    /// `maxCELength` in milliseconds.
    public var maxCELengthMilliseconds: Double { Double(maxCELength) * 0.625 }

    /// Reads the 12 octets at `offset`; the caller has checked the length.
    init(_ p: borrowing ArraySlice<UInt8>, at offset: Int) {
        intervalMin = p.littleEndianUInt16(at: offset)
        intervalMax = p.littleEndianUInt16(at: offset + 2)
        maxLatency = p.littleEndianUInt16(at: offset + 4)
        supervisionTimeout = p.littleEndianUInt16(at: offset + 6)
        minCELength = p.littleEndianUInt16(at: offset + 8)
        maxCELength = p.littleEndianUInt16(at: offset + 10)
    }

    func encode(into writer: inout ByteWriter) {
        writer.write(intervalMin)
        writer.write(intervalMax)
        writer.write(maxLatency)
        writer.write(supervisionTimeout)
        writer.write(minCELength)
        writer.write(maxCELength)
    }
}
