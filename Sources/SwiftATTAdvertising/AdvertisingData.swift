import SwiftATTCore

/// Advertising or scan response data: a sequence of AD structures, read in place.
///
/// Core 5.4 Vol 3 Part C §11. Legacy payloads hold up to 31 octets, extended ones up to
/// 1650; the parser accepts any length. A Length octet of zero ends the significant part
/// early; everything from it on is the non-significant part (`padding`), which legacy
/// advertisers fill with zeros up to 31 octets. Parsing validates every structure once
/// (length in bounds, fixed-size types the right size), then the collection walks the
/// structures as views into the input without further checks. Order is kept and types
/// this target does not decode stay available as raw structures.
///
/// The index is the byte offset of a structure's Length octet.
public struct AdvertisingData: Collection, Hashable, Sendable, ByteEncodable {
    /// The whole payload as parsed or built, padding included.
    public let bytes: ArraySlice<UInt8>
    /// Octets before the terminating zero Length octet (or all of them when there is none).
    public let significantLength: Int

    @inlinable
    init(unchecked bytes: ArraySlice<UInt8>, significantLength: Int) {
        self.bytes = bytes
        self.significantLength = significantLength
    }

    /// Parses a payload; throws at the first structure that is malformed.
    @inlinable
    public init(parsing payload: borrowing ArraySlice<UInt8>) throws(ADDecodingError) {
        let bytes = copy payload
        let (end, error) = Self.scan(bytes)
        if let error { throw error }
        self.init(unchecked: bytes, significantLength: end)
    }

    /// Parses a payload held in an array.
    @inlinable
    public init(parsing payload: [UInt8]) throws(ADDecodingError) {
        try self.init(parsing: payload[...])
    }

    /// The structures that are well formed, up to the first that is not, and the error that
    /// stopped the walk (`nil` when the whole payload is valid). For scanners that keep
    /// what they can read of a damaged report.
    public static func parsingValidPrefix(_ payload: ArraySlice<UInt8>) -> (data: AdvertisingData, error: ADDecodingError?) {
        let (end, error) = scan(payload)
        guard error != nil else { return (AdvertisingData(unchecked: payload, significantLength: end), nil) }
        return (AdvertisingData(unchecked: payload.bytes(at: 0, count: end), significantLength: end), error)
    }

    /// Structures back to back, with no padding. Each structure is already valid, so this
    /// cannot fail; it checks no overall length limit (see `AdvertisingDataBuilder`).
    public init(_ structures: some Sequence<ADStructure>) {
        var out: [UInt8] = []
        for s in structures { s.encode(appendingTo: &out) }
        self.init(unchecked: out[...], significantLength: out.count)
    }

    /// Walks the structures once: returns the end of the significant part, or the offset
    /// of the first malformed structure and why it is malformed.
    @inlinable
    static func scan(_ bytes: ArraySlice<UInt8>) -> (end: Int, error: ADDecodingError?) {
        let count = bytes.count
        var offset = 0
        while offset < count {
            let length = Int(bytes.byte(at: offset))
            if length == 0 { break }
            let remaining = count &- offset &- 1
            guard length <= remaining else {
                return (offset, .structureOverrun(offset: offset, length: length, remaining: remaining))
            }
            let type = ADType(bytes.byte(at: offset &+ 1))
            if let rule = type.lengthRequirement, !rule.isSatisfied(by: length &- 1) {
                return (offset, .invalidLength(type, offset: offset, length: length &- 1, required: rule))
            }
            offset &+= 1 &+ length
        }
        return (offset, nil)
    }

    // MARK: Collection

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { significantLength }

    @inlinable
    public func index(after i: Int) -> Int {
        i &+ 1 &+ Int(bytes.byte(at: i))
    }

    @inlinable
    public subscript(position: Int) -> ADStructure {
        let length = Int(bytes.byte(at: position))
        return ADStructure(
            unchecked: ADType(bytes.byte(at: position &+ 1)),
            data: bytes.bytes(at: position &+ 2, count: length &- 1))
    }

    /// The significant part: the AD structures.
    public var significantPart: ArraySlice<UInt8> { bytes.bytes(at: 0, count: significantLength) }
    /// The non-significant part, from the zero Length octet on; empty when there is none.
    public var padding: ArraySlice<UInt8> { bytes.bytes(from: significantLength) }
    /// Whether the non-significant part is all zeros, as Vol 3 Part C §11 requires.
    public var paddingIsZero: Bool { padding.allSatisfy { $0 == 0 } }

    // MARK: ByteEncodable

    /// The bytes exactly as parsed (padding included), so parse → encode is the identity.
    public var encodedLength: Int { bytes.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(bytes)
    }
}

// MARK: Typed accessors

extension AdvertisingData {
    /// Every structure, decoded.
    public var items: [ADItem] { map(\.item) }

    /// The first structure of `type`.
    public func first(_ type: ADType) -> ADStructure? {
        first { $0.type == type }
    }

    /// The Flags, if present.
    public var flags: ADFlags? {
        first(.flags).map { ADFlags(data: $0.data) }
    }

    /// Every service class UUID from the incomplete and complete lists, in order.
    public var serviceUUIDs: [BluetoothUUID] {
        var out: [BluetoothUUID] = []
        for s in self {
            if let list = ServiceUUIDList(s), list.kind != .solicitation { out.append(contentsOf: list) }
        }
        return out
    }

    /// Every service solicitation UUID, in order.
    public var solicitedServiceUUIDs: [BluetoothUUID] {
        var out: [BluetoothUUID] = []
        for s in self {
            if let list = ServiceUUIDList(s), list.kind == .solicitation { out.append(contentsOf: list) }
        }
        return out
    }

    /// Each service UUID list as it appears.
    public var serviceUUIDLists: [ServiceUUIDList] {
        compactMap { ServiceUUIDList($0) }
    }

    /// The Complete Local Name, or else the Shortened Local Name.
    public var localName: LocalName? {
        if let complete = first(.completeLocalName) { return LocalName(complete) }
        return first(.shortenedLocalName).flatMap { LocalName($0) }
    }

    /// The Tx Power Level in dBm.
    public var txPowerLevel: Int8? {
        first(.txPowerLevel).map { Int8(bitPattern: $0.data.byte(at: 0)) }
    }

    /// The Peripheral Connection Interval Range, when advertised.
    public var peripheralConnectionIntervalRange: PeripheralConnectionIntervalRange? {
        first(.peripheralConnectionIntervalRange).flatMap { PeripheralConnectionIntervalRange($0) }
    }

    /// Every Service Data structure (16-, 32- and 128-bit), in order.
    public var serviceData: [ServiceData] {
        compactMap { ServiceData($0) }
    }

    /// The first Service Data for `uuid` (compared as 128-bit values).
    public func serviceData(for uuid: BluetoothUUID) -> ServiceData? {
        for s in self {
            if let d = ServiceData(s), d.uuid == uuid { return d }
        }
        return nil
    }

    /// The Appearance, when advertised.
    public var appearance: Appearance? {
        first(.appearance).map { Appearance(rawValue: $0.data.littleEndianUInt16(at: 0)) }
    }

    /// Every public and random target address, in order.
    public var targetAddresses: [BluetoothAddress] {
        var out: [BluetoothAddress] = []
        for s in self {
            if let list = TargetAddressList(s) { out.append(contentsOf: list) }
        }
        return out
    }

    /// The Advertising Interval, or else the Advertising Interval - long.
    public var advertisingInterval: AdvertisingInterval? {
        if let short = first(.advertisingInterval) { return AdvertisingInterval(short) }
        return first(.advertisingIntervalLong).flatMap { AdvertisingInterval($0) }
    }

    /// The LE Bluetooth Device Address, when advertised: the device's address and its type.
    public var leBluetoothDeviceAddress: BluetoothAddress? {
        first(.leBluetoothDeviceAddress).map { ADItem.leBluetoothDeviceAddress(from: $0.data) }
    }

    /// The LE Role, when advertised: the roles the device supports and prefers.
    public var leRole: LERoleSupport? {
        first(.leRole).map { LERoleSupport(rawValue: $0.data.byte(at: 0)) }
    }

    /// Every URI, in order.
    public var uris: [URI] {
        compactMap { URI($0) }
    }

    /// Every Manufacturer Specific Data structure, in order.
    public var manufacturerSpecificData: [ManufacturerSpecificData] {
        compactMap { ManufacturerSpecificData($0) }
    }

    /// The first Manufacturer Specific Data of `company`.
    public func manufacturerSpecificData(for company: CompanyIdentifier) -> ManufacturerSpecificData? {
        for s in self {
            if let m = ManufacturerSpecificData(s), m.companyIdentifier == company { return m }
        }
        return nil
    }

    /// The first iBeacon carried in Apple manufacturer data.
    public var iBeacon: IBeacon? {
        for s in self {
            if let m = ManufacturerSpecificData(s), let beacon = IBeacon(m) { return beacon }
        }
        return nil
    }

    /// The first Eddystone frame carried in 0xFEAA service data.
    public var eddystone: EddystoneFrame? {
        for s in self {
            if let d = ServiceData(s), let frame = EddystoneFrame(d) { return frame }
        }
        return nil
    }
}
