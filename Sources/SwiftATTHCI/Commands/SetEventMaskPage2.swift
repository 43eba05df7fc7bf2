import SwiftATTCore

/// HCI_Set_Event_Mask_Page_2: which events with codes 0x41–0x80 the controller may send
/// (bit n enables event code n + 65; bit 25 is Encryption Change v2, 0x59).
/// Core 5.4 Vol 4 Part E §7.3.69.
public struct SetEventMaskPage2: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x03, ocf: 0x0063) }
    /// Event_Mask_Page_2.
    public var eventMask: UInt64

    /// HCI_Set_Event_Mask_Page_2 with these parameters.
    public init(eventMask: UInt64) { self.eventMask = eventMask }

    public var parametersLength: Int { 8 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(eventMask)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "Set Event Mask Page 2 parameters", length: 8)
        eventMask = p.littleEndianUInt64(at: 0)
    }
}
