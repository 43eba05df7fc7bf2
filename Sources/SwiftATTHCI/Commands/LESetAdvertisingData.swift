import SwiftATTCore

/// HCI_LE_Set_Advertising_Data: the AD structures a legacy advertiser sends (at most 31
/// octets). Core 5.4 Vol 4 Part E §7.8.7.
public struct LESetAdvertisingData: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0008) }
    /// Advertising_Data, at most 31 octets; a view into the parsed packet.
    public var advertisingData: ArraySlice<UInt8>

    /// HCI_LE_Set_Advertising_Data with these parameters.
    public init(advertisingData: ArraySlice<UInt8>) { self.advertisingData = advertisingData }

    public var parametersLength: Int { LegacyAdvertisingDataParameters.length }

    public func encodeParameters(into writer: inout ByteWriter) {
        LegacyAdvertisingDataParameters.encode(advertisingData, into: &writer)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        advertisingData = try LegacyAdvertisingDataParameters.parse(p, "LE Set Advertising Data")
    }
}

/// The layout LE Set Advertising Data and LE Set Scan Response Data share: a length octet
/// and a fixed 31-octet field whose unused tail is zero.
enum LegacyAdvertisingDataParameters {
    static let maximumDataLength = 31
    static let length = 1 + maximumDataLength

    /// Writes the length, the data and zeros up to 31 octets; data beyond 31 octets
    /// (a programmer error) is cut at 31.
    static func encode(_ data: ArraySlice<UInt8>, into writer: inout ByteWriter) {
        let n = min(data.count, maximumDataLength)
        writer.write(UInt8(n))
        writer.write(data.prefix(n))
        for _ in n..<maximumDataLength { writer.write(UInt8(0)) }
    }

    /// Accepts the full 32 octets, or a block cut right after the significant data as
    /// some hosts send it.
    static func parse(_ p: borrowing ArraySlice<UInt8>, _ what: String) throws(HCIDecodingError) -> ArraySlice<UInt8> {
        try HCIWire.check(p, "\(what) parameters", atLeast: 1)
        let n = Int(p.byte(at: 0))
        guard n <= maximumDataLength else { throw .invalidField("\(what) data length", value: n) }
        if p.count < 1 + n { throw .truncated("\(what) data", need: 1 + n, have: p.count) }
        if p.count > length { throw .lengthMismatch("\(what) parameters", declared: length, have: p.count) }
        return p.bytes(at: 1, count: n)
    }
}
