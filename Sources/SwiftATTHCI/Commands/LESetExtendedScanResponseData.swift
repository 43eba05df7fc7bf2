import SwiftATTCore

/// HCI_LE_Set_Extended_Scan_Response_Data: (a fragment of) an extended advertising set's
/// scan response data, at most 251 octets per command. Core 5.4 Vol 4 Part E §7.8.55.
public struct LESetExtendedScanResponseData: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0038) }
    /// Which part of the data this command carries, as for advertising data.
    public typealias Operation = LESetExtendedAdvertisingData.Operation
    /// Whether the controller may fragment the data, as for advertising data.
    public typealias FragmentPreference = LESetExtendedAdvertisingData.FragmentPreference

    /// Advertising_Handle: which advertising set.
    public var advertisingHandle: UInt8
    /// Operation: which part of the data this command carries.
    public var operation: Operation
    /// Fragment_Preference: whether the controller may fragment the data.
    public var fragmentPreference: FragmentPreference
    /// Scan_Response_Data, at most 251 octets; a view into the parsed packet.
    public var scanResponseData: ArraySlice<UInt8>

    /// HCI_LE_Set_Extended_Scan_Response_Data with these parameters.
    public init(advertisingHandle: UInt8, operation: Operation = .completeData,
                fragmentPreference: FragmentPreference = .mayFragment, scanResponseData: ArraySlice<UInt8>) {
        self.advertisingHandle = advertisingHandle
        self.operation = operation
        self.fragmentPreference = fragmentPreference
        self.scanResponseData = scanResponseData
    }

    public var parametersLength: Int { ExtendedAdvertisingDataParameters.length(scanResponseData) }

    public func encodeParameters(into writer: inout ByteWriter) {
        ExtendedAdvertisingDataParameters.encode(
            advertisingHandle, operation, fragmentPreference, scanResponseData, into: &writer)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        (advertisingHandle, operation, fragmentPreference, scanResponseData) =
            try ExtendedAdvertisingDataParameters.parse(p, "LE Set Extended Scan Response Data")
    }
}
