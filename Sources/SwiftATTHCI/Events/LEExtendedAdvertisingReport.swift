import SwiftATTCore

/// HCI_LE_Extended_Advertising_Report (LE Meta subevent 0x0D): extended or legacy
/// advertising PDUs a scanner received. Core 5.4 Vol 4 Part E §7.7.65.13.
///
/// Bumble's controller answers even a legacy scan with these (BENCH.md quirk 5). Reports
/// are interleaved on the wire, 24 fixed octets then the data; every length is checked
/// before any field is read, and each report's `data` is a view into the event's bytes.
public struct LEExtendedAdvertisingReport: LEMetaSubevent, Hashable {
    public static let subeventCode: UInt8 = 0x0D
    /// The most data one report carries (what fits in one event).
    public static let maximumDataLength = 229

    /// Event_Type: bits 0–4 describe the PDU, bits 5–6 the data status.
    public struct EventType: OptionSet, Sendable, Hashable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// Bit 0: connectable advertising.
        public static let connectable = EventType(rawValue: 1 << 0)
        /// Bit 1: scannable advertising.
        public static let scannable = EventType(rawValue: 1 << 1)
        /// Bit 2: directed advertising.
        public static let directed = EventType(rawValue: 1 << 2)
        /// Bit 3: a scan response.
        public static let scanResponse = EventType(rawValue: 1 << 3)
        /// The PDU was a legacy one.
        public static let legacy = EventType(rawValue: 1 << 4)

        /// Whether this report holds all the data, or more reports follow.
        public enum DataStatus: UInt16, Sendable, Hashable, CaseIterable {
            /// The report holds all the data.
            case complete = 0
            /// Incomplete: more reports with data follow.
            case incompleteMoreToCome = 1
            /// Incomplete, and no more will come.
            case incompleteTruncated = 2
            /// Reserved for future use.
            case reserved = 3
        }

        /// Event_Type of the PDU bits `flags` and `dataStatus`.
        public init(_ flags: EventType, dataStatus: DataStatus) {
            rawValue = flags.rawValue & 0x1F | dataStatus.rawValue << 5
        }

        /// Bits 5–6: whether more data follows.
        public var dataStatus: DataStatus {
            switch (rawValue >> 5) & 0b11 {
            case 0: return .complete
            case 1: return .incompleteMoreToCome
            case 2: return .incompleteTruncated
            default: return .reserved
            }
        }
    }

    /// One advertisement, or one piece of it.
    public struct Report: Sendable, Hashable {
        /// Event_Type: what kind of advertising PDU was received.
        public var eventType: EventType
        /// Address_Type; `.anonymous` when the advertiser sent no address.
        public var addressType: LEAddressType
        /// Address: the advertiser's address.
        public var address: BluetoothAddress
        /// LE 1M or LE Coded.
        public var primaryPHY: LEPHY
        /// The PHY of the auxiliary packets; `nil` when there were none.
        public var secondaryPHY: LEPHY?
        /// Advertising_SID (0x00–0x0F), or 0xFF when there was no ADI field.
        public var advertisingSID: UInt8
        /// TX_Power in dBm; 127 means not available.
        public var txPower: Int8
        /// RSSI in dBm; 127 means not available.
        public var rssi: Int8
        /// Periodic_Advertising_Interval, in units of 1.25 ms; 0 when there is none.
        public var periodicAdvertisingInterval: UInt16
        /// For directed advertising, whom it was directed to.
        public var directAddressType: LEAddressType
        /// Direct_Address: the address a directed advertisement was sent to.
        public var directAddress: BluetoothAddress
        /// A view into the event's bytes.
        public var data: ArraySlice<UInt8>

        /// A report of these fields; the address type defaults to the address's kind.
        public init(eventType: EventType, address: BluetoothAddress, addressType: LEAddressType? = nil,
                    primaryPHY: LEPHY = .le1M, secondaryPHY: LEPHY? = nil, advertisingSID: UInt8 = 0xFF,
                    txPower: Int8 = 127, rssi: Int8, periodicAdvertisingInterval: UInt16 = 0,
                    directAddress: BluetoothAddress = BluetoothAddress(0), directAddressType: LEAddressType? = nil,
                    data: ArraySlice<UInt8>) {
            self.eventType = eventType
            let type = addressType ?? LEAddressType(address.kind)
            self.addressType = type
            self.address = BluetoothAddress(address.value, kind: type.kind)
            self.primaryPHY = primaryPHY
            self.secondaryPHY = secondaryPHY
            self.advertisingSID = advertisingSID
            self.txPower = txPower
            self.rssi = rssi
            self.periodicAdvertisingInterval = periodicAdvertisingInterval
            let directType = directAddressType ?? LEAddressType(directAddress.kind)
            self.directAddressType = directType
            self.directAddress = BluetoothAddress(directAddress.value, kind: directType.kind)
            self.data = data
        }

        /// `periodicAdvertisingInterval` in milliseconds.
        public var periodicAdvertisingIntervalMilliseconds: Double { Double(periodicAdvertisingInterval) * 1.25 }

        /// Octets sent; data beyond 229 octets (a programmer error) is cut.
        var sentDataCount: Int { min(data.count, LEExtendedAdvertisingReport.maximumDataLength) }
    }

    /// The reports, in the order the event carries them.
    public var reports: [Report]

    /// HCI_LE_Extended_Advertising_Report with these parameters, as a controller (an emulated one,
    /// a test) sends it.
    public init(reports: [Report]) { self.reports = reports }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        let what = "LE Extended Advertising Report"
        try HCIWire.check(p, what, atLeast: 1)
        let count = Int(p.byte(at: 0))
        var reports: [Report] = []
        reports.reserveCapacity(count)
        var offset = 1
        for i in 0..<count {
            let remaining = p.count - offset
            guard remaining >= 24 else { throw .truncated("\(what) report \(i)", need: 24, have: remaining) }
            let n = Int(p.byte(at: offset + 23))
            guard remaining >= 24 + n else { throw .truncated("\(what) report \(i)", need: 24 + n, have: remaining) }
            let addressType = try HCIField.decode(
                LEAddressType.self, p.byte(at: offset + 2), "\(what) report \(i) Address_Type")
            let primaryPHY = try HCIField.decode(LEPHY.self, p.byte(at: offset + 9), "\(what) report \(i) Primary_PHY")
            let secondary = p.byte(at: offset + 10)
            let secondaryPHY = secondary == 0 ? nil
                : try HCIField.decode(LEPHY.self, secondary, "\(what) report \(i) Secondary_PHY")
            let directAddressType = try HCIField.decode(
                LEAddressType.self, p.byte(at: offset + 16), "\(what) report \(i) Direct_Address_Type")
            reports.append(Report(
                eventType: EventType(rawValue: p.littleEndianUInt16(at: offset)),
                address: p.address(at: offset + 3, kind: addressType.kind), addressType: addressType,
                primaryPHY: primaryPHY, secondaryPHY: secondaryPHY, advertisingSID: p.byte(at: offset + 11),
                txPower: p.int8(at: offset + 12), rssi: p.int8(at: offset + 13),
                periodicAdvertisingInterval: p.littleEndianUInt16(at: offset + 14),
                directAddress: p.address(at: offset + 17, kind: directAddressType.kind),
                directAddressType: directAddressType, data: p.bytes(at: offset + 24, count: n)))
            offset += 24 + n
        }
        guard offset == p.count else { throw .lengthMismatch("\(what) (\(count) reports)", declared: offset, have: p.count) }
        self.reports = reports
    }

    public var parametersLength: Int { reports.reduce(1) { $0 + 24 + $1.sentDataCount } }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(UInt8(truncatingIfNeeded: reports.count))
        for r in reports {
            writer.write(r.eventType.rawValue)
            writer.write(r.addressType.rawValue)
            r.address.encode(into: &writer)
            writer.write(r.primaryPHY.rawValue)
            writer.write(r.secondaryPHY?.rawValue ?? 0)
            writer.write(r.advertisingSID)
            writer.write(UInt8(bitPattern: r.txPower))
            writer.write(UInt8(bitPattern: r.rssi))
            writer.write(r.periodicAdvertisingInterval)
            writer.write(r.directAddressType.rawValue)
            r.directAddress.encode(into: &writer)
            writer.write(UInt8(r.sentDataCount))
            writer.write(r.data.prefix(r.sentDataCount))
        }
    }
}
