import SwiftATTCore

/// Writes AD structures into advertising or scan response data, within a length limit.
///
/// Legacy advertising and scan response data hold 31 octets (Core 5.4 Vol 3 Part C §11,
/// Vol 6 Part B §2.3.1); extended advertising data up to 1650 (Vol 4 Part E §7.8.54,
/// `Advertising_Data` across fragments). Each structure's Length octet counts the AD type
/// and the data, so a structure carries at most 254 data octets. An append that would
/// break either limit throws and leaves the builder as it was.
///
///     var builder = AdvertisingDataBuilder.legacy
///     try builder.append(.flags(.leGeneralDiscoverableLEOnly))
///     try builder.append(.serviceUUIDs(ServiceUUIDList([BluetoothUUID(0x180D)])))
///     try builder.appendLocalName("Polar H10 1234ABCD")   // shortened if it does not fit
///     let payload = builder.bytes
public struct AdvertisingDataBuilder: Hashable, Sendable {
    /// Legacy advertising or scan response data.
    public static let legacyMaximumLength = 31
    /// Extended advertising data, all fragments together.
    public static let extendedMaximumLength = 1650

    /// The limit this builder enforces.
    public let maximumLength: Int
    /// The structures written so far, back to back, without padding.
    public private(set) var bytes: [UInt8] = []

    /// A builder refusing structures past `maximumLength` octets: 31 for legacy advertising by
    /// default.
    public init(maximumLength: Int = AdvertisingDataBuilder.legacyMaximumLength) {
        self.maximumLength = maximumLength
    }

    /// An empty builder with the 31-octet legacy limit.
    public static var legacy: AdvertisingDataBuilder { AdvertisingDataBuilder() }
    /// An empty builder with the 1650-octet extended limit.
    public static var extended: AdvertisingDataBuilder { AdvertisingDataBuilder(maximumLength: extendedMaximumLength) }

    /// Octets still free.
    public var remainingLength: Int { maximumLength - bytes.count }

    /// The data built so far.
    public var advertisingData: AdvertisingData {
        AdvertisingData(unchecked: bytes[...], significantLength: bytes.count)
    }

    /// Appends one item as an AD structure.
    public mutating func append(_ item: ADItem) throws(ADEncodingError) {
        let dataLength = item.dataLength
        guard dataLength <= ADEncodingError.maximumStructureDataLength else {
            throw .structureTooLong(item.type, dataLength: dataLength)
        }
        let needed = bytes.count + 2 + dataLength
        guard needed <= maximumLength else { throw .tooLong(needed: needed, limit: maximumLength) }
        item.encode(appendingTo: &bytes)
    }

    /// Appends a raw structure as it is.
    public mutating func append(_ structure: ADStructure) throws(ADEncodingError) {
        try append(.other(structure))
    }

    /// Appends every item, or (on the first that does not fit) none of them.
    public mutating func append(contentsOf items: some Sequence<ADItem>) throws(ADEncodingError) {
        var copy = self
        for item in items { try copy.append(item) }
        self = copy
    }

    /// Appends the device name: the Complete Local Name when it fits, otherwise a Shortened
    /// Local Name holding as many leading characters as fit (never splitting a character).
    /// Returns the name written. Throws when not even one character fits.
    ///
    /// Core 5.4 Vol 3 Part C §12.1 and Supplement Part A §1.2: a shortened name is the start
    /// of the complete one; a peer reads the rest from the Device Name characteristic.
    @discardableResult
    public mutating func appendLocalName(_ name: String) throws(ADEncodingError) -> LocalName {
        let room = min(remainingLength - 2, ADEncodingError.maximumStructureDataLength)
        let complete = LocalName(name, isComplete: true)
        if complete.bytes.count <= room {
            try append(.localName(complete))
            return complete
        }
        var prefix: [UInt8] = []
        for character in name {
            let utf8 = character.utf8
            guard prefix.count + utf8.count <= room else { break }
            prefix.append(contentsOf: utf8)
        }
        guard !prefix.isEmpty else {
            let first = name.first.map { $0.utf8.count } ?? 0
            throw .tooLong(needed: bytes.count + 2 + first, limit: maximumLength)
        }
        let shortened = LocalName(String(decoding: prefix, as: UTF8.self), isComplete: false)
        try append(.localName(shortened))
        return shortened
    }
}

extension AdvertisingData {
    /// Advertising data holding `items`, in order, within `maximumLength` octets.
    public init(_ items: some Sequence<ADItem>, maximumLength: Int = AdvertisingDataBuilder.legacyMaximumLength) throws(ADEncodingError) {
        var builder = AdvertisingDataBuilder(maximumLength: maximumLength)
        try builder.append(contentsOf: items)
        self = builder.advertisingData
    }
}
