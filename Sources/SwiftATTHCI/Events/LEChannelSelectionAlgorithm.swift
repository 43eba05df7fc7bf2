import SwiftATTCore

/// HCI_LE_Channel_Selection_Algorithm (LE Meta subevent 0x14): which channel selection
/// algorithm a new connection uses. Core 5.4 Vol 4 Part E §7.7.65.20.
public struct LEChannelSelectionAlgorithm: LEMetaSubevent, Hashable {
    public static let subeventCode: UInt8 = 0x14
    /// Connection_Handle: the connection, as the controller numbers it.
    public var connectionHandle: UInt16
    /// Channel_Selection_Algorithm: 0x00 is #1, 0x01 is #2.
    public var channelSelectionAlgorithm: UInt8

    /// HCI_LE_Channel_Selection_Algorithm with these parameters, as a controller (an emulated one,
    /// a test) sends it.
    public init(connectionHandle: UInt16, channelSelectionAlgorithm: UInt8) {
        self.connectionHandle = connectionHandle
        self.channelSelectionAlgorithm = channelSelectionAlgorithm
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Channel Selection Algorithm", length: 3)
        connectionHandle = p.littleEndianUInt16(at: 0)
        channelSelectionAlgorithm = p.byte(at: 2)
    }

    public var parametersLength: Int { 3 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(connectionHandle)
        writer.write(channelSelectionAlgorithm)
    }
}
