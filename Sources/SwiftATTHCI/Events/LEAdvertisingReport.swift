import SwiftATTCore

/// HCI_LE_Advertising_Report (LE Meta subevent 0x02): legacy advertising PDUs a scanner
/// received. Core 5.4 Vol 4 Part E §7.7.65.2.
///
/// Reports are interleaved on the wire (event type, address type, address, data length,
/// data, RSSI for report 0, then report 1, …). Every length is checked before any field
/// is read; each report's `data` is a view into the event's bytes.
public struct LEAdvertisingReport: LEMetaSubevent, Hashable {
    public static let subeventCode: UInt8 = 0x02
    /// The most advertising data one legacy PDU carries.
    public static let maximumDataLength = 31

    /// Event_Type: which legacy PDU was received.
    public enum EventType: UInt8, Sendable, Hashable, CaseIterable {
        /// ADV_IND: connectable and scannable undirected.
        case advInd = 0x00
        /// ADV_DIRECT_IND: connectable directed.
        case advDirectInd = 0x01
        /// ADV_SCAN_IND: scannable undirected.
        case advScanInd = 0x02
        /// ADV_NONCONN_IND: neither connectable nor scannable.
        case advNonconnInd = 0x03
        /// SCAN_RSP: a scan response.
        case scanRsp = 0x04
    }

    /// One advertisement or scan response.
    public struct Report: Sendable, Hashable {
        /// Event_Type: what kind of advertising PDU was received.
        public var eventType: EventType
        /// Address_Type: public or random, or an identity address the controller resolved.
        public var addressType: LEAddressType
        /// Address: the advertiser's address.
        public var address: BluetoothAddress
        /// The AD structures, at most 31 octets: a view into the event's bytes.
        public var data: ArraySlice<UInt8>
        /// RSSI in dBm (−127…20); 127 means not available.
        public var rssi: Int8

        /// A report of these fields; the address type defaults to the address's kind.
        public init(eventType: EventType, address: BluetoothAddress, addressType: LEAddressType? = nil,
                    data: ArraySlice<UInt8>, rssi: Int8) {
            self.eventType = eventType
            let type = addressType ?? LEAddressType(address.kind)
            self.addressType = type
            self.address = BluetoothAddress(address.value, kind: type.kind)
            self.data = data
            self.rssi = rssi
        }

        /// Octets sent; data beyond 31 octets (a programmer error) is cut.
        var sentDataCount: Int { min(data.count, LEAdvertisingReport.maximumDataLength) }
    }

    /// The reports, in the order the event carries them.
    public var reports: [Report]

    /// HCI_LE_Advertising_Report with these parameters, as a controller (an emulated one, a test)
    /// sends it.
    public init(reports: [Report]) { self.reports = reports }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        let what = "LE Advertising Report"
        try HCIWire.check(p, what, atLeast: 1)
        let count = Int(p.byte(at: 0))
        var reports: [Report] = []
        reports.reserveCapacity(count)
        var offset = 1
        for i in 0..<count {
            let remaining = p.count - offset
            guard remaining >= 10 else { throw .truncated("\(what) report \(i)", need: 10, have: remaining) }
            let n = Int(p.byte(at: offset + 8))
            guard n <= Self.maximumDataLength else { throw .invalidField("\(what) report \(i) Data_Length", value: n) }
            guard remaining >= 10 + n else { throw .truncated("\(what) report \(i)", need: 10 + n, have: remaining) }
            let eventType = try HCIField.decode(EventType.self, p.byte(at: offset), "\(what) report \(i) Event_Type")
            let addressType = try HCIField.decode(
                LEAddressType.self, p.byte(at: offset + 1), "\(what) report \(i) Address_Type")
            reports.append(Report(eventType: eventType, address: p.address(at: offset + 2, kind: addressType.kind),
                                  addressType: addressType, data: p.bytes(at: offset + 9, count: n),
                                  rssi: p.int8(at: offset + 9 + n)))
            offset += 10 + n
        }
        guard offset == p.count else { throw .lengthMismatch("\(what) (\(count) reports)", declared: offset, have: p.count) }
        self.reports = reports
    }

    public var parametersLength: Int { reports.reduce(1) { $0 + 10 + $1.sentDataCount } }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(UInt8(truncatingIfNeeded: reports.count))
        for r in reports {
            writer.write(r.eventType.rawValue)
            writer.write(r.addressType.rawValue)
            r.address.encode(into: &writer)
            writer.write(UInt8(r.sentDataCount))
            writer.write(r.data.prefix(r.sentDataCount))
            writer.write(UInt8(bitPattern: r.rssi))
        }
    }
}
