import SwiftATTCore

/// HCI_LE_Advertising_Set_Terminated (LE Meta subevent 0x12): an extended advertising set
/// stopped because a connection was created from it or its duration/event limit ran out.
/// Core 5.4 Vol 4 Part E §7.7.65.18.
public struct LEAdvertisingSetTerminated: LEMetaSubevent, Hashable {
    public static let subeventCode: UInt8 = 0x12
    /// Success when a connection was created; Advertising Timeout (0x3C) or Limit Reached
    /// (0x43) otherwise.
    public var status: HCIStatus
    /// Advertising_Handle: which advertising set.
    public var advertisingHandle: UInt8
    /// The new connection's handle (meaningful only on success).
    public var connectionHandle: UInt16
    /// Num_Completed_Extended_Advertising_Events: how many events the set sent.
    public var numCompletedExtendedAdvertisingEvents: UInt8

    /// HCI_LE_Advertising_Set_Terminated with these parameters, as a controller (an emulated one, a
    /// test) sends it.
    public init(status: HCIStatus = .success, advertisingHandle: UInt8, connectionHandle: UInt16,
                numCompletedExtendedAdvertisingEvents: UInt8 = 0) {
        self.status = status
        self.advertisingHandle = advertisingHandle
        self.connectionHandle = connectionHandle
        self.numCompletedExtendedAdvertisingEvents = numCompletedExtendedAdvertisingEvents
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Advertising Set Terminated", length: 5)
        status = HCIStatus(p.byte(at: 0))
        advertisingHandle = p.byte(at: 1)
        connectionHandle = p.littleEndianUInt16(at: 2)
        numCompletedExtendedAdvertisingEvents = p.byte(at: 4)
    }

    public var parametersLength: Int { 5 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(status.rawValue)
        writer.write(advertisingHandle)
        writer.write(connectionHandle)
        writer.write(numCompletedExtendedAdvertisingEvents)
    }
}
