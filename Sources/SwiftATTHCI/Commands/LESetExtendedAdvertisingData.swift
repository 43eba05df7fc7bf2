import SwiftATTCore

/// HCI_LE_Set_Extended_Advertising_Data: (a fragment of) an extended advertising set's
/// AD structures, at most 251 octets per command. Core 5.4 Vol 4 Part E §7.8.54.
public struct LESetExtendedAdvertisingData: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0037) }

    /// Operation: which part of the whole data this command carries.
    public enum Operation: UInt8, Sendable, Hashable, CaseIterable {
        /// A middle fragment of the data.
        case intermediateFragment = 0x00
        /// The first fragment of the data.
        case firstFragment = 0x01
        /// The last fragment of the data.
        case lastFragment = 0x02
        /// All of the data, in this one command.
        case completeData = 0x03
        /// Keep the data, change only the advertising DID (no data in the command).
        case unchangedData = 0x04
    }

    /// Fragment_Preference: whether the controller may split the data over several PDUs.
    public enum FragmentPreference: UInt8, Sendable, Hashable, CaseIterable {
        /// The controller may fragment the data over the air.
        case mayFragment = 0x00
        /// The controller should not fragment the data.
        case shouldNotFragment = 0x01
    }

    /// Advertising_Handle: which advertising set.
    public var advertisingHandle: UInt8
    /// Operation: which part of the data this command carries.
    public var operation: Operation
    /// Fragment_Preference: whether the controller may fragment the data.
    public var fragmentPreference: FragmentPreference
    /// Advertising_Data, at most 251 octets; a view into the parsed packet.
    public var advertisingData: ArraySlice<UInt8>

    /// HCI_LE_Set_Extended_Advertising_Data with these parameters.
    public init(advertisingHandle: UInt8, operation: Operation = .completeData,
                fragmentPreference: FragmentPreference = .mayFragment, advertisingData: ArraySlice<UInt8>) {
        self.advertisingHandle = advertisingHandle
        self.operation = operation
        self.fragmentPreference = fragmentPreference
        self.advertisingData = advertisingData
    }

    public var parametersLength: Int { ExtendedAdvertisingDataParameters.length(advertisingData) }

    public func encodeParameters(into writer: inout ByteWriter) {
        ExtendedAdvertisingDataParameters.encode(
            advertisingHandle, operation, fragmentPreference, advertisingData, into: &writer)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        (advertisingHandle, operation, fragmentPreference, advertisingData) =
            try ExtendedAdvertisingDataParameters.parse(p, "LE Set Extended Advertising Data")
    }
}

/// The layout LE Set Extended Advertising Data and LE Set Extended Scan Response Data
/// share: handle, operation, fragment preference, length, data.
enum ExtendedAdvertisingDataParameters {
    typealias Operation = LESetExtendedAdvertisingData.Operation
    typealias FragmentPreference = LESetExtendedAdvertisingData.FragmentPreference

    static let maximumDataLength = 251

    static func length(_ data: ArraySlice<UInt8>) -> Int { 4 + min(data.count, maximumDataLength) }

    /// Data beyond 251 octets (a programmer error) is cut at 251.
    static func encode(_ handle: UInt8, _ operation: Operation, _ preference: FragmentPreference,
                       _ data: ArraySlice<UInt8>, into writer: inout ByteWriter) {
        let n = min(data.count, maximumDataLength)
        writer.write(handle)
        writer.write(operation.rawValue)
        writer.write(preference.rawValue)
        writer.write(UInt8(n))
        writer.write(data.prefix(n))
    }

    static func parse(_ p: borrowing ArraySlice<UInt8>, _ what: String) throws(HCIDecodingError)
        -> (UInt8, Operation, FragmentPreference, ArraySlice<UInt8>)
    {
        try HCIWire.check(p, "\(what) parameters", atLeast: 4)
        let n = Int(p.byte(at: 3))
        guard n <= maximumDataLength else { throw .invalidField("\(what) Advertising_Data_Length", value: n) }
        try HCIWire.check(p, "\(what) parameters", length: 4 + n)
        let operation = try HCIField.decode(Operation.self, p.byte(at: 1), "\(what) Operation")
        let preference = try HCIField.decode(FragmentPreference.self, p.byte(at: 2), "\(what) Fragment_Preference")
        return (p.byte(at: 0), operation, preference, p.bytes(at: 4, count: n))
    }
}
