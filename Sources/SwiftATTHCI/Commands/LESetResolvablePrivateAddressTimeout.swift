import SwiftATTCore

/// HCI_LE_Set_Resolvable_Private_Address_Timeout: how long the controller uses each
/// resolvable private address it generates before it makes a new one.
/// Core 5.4 Vol 4 Part E §7.8.45.
public struct LESetResolvablePrivateAddressTimeout: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x002E) }
    /// RPA_Timeout in seconds: 0x0001–0x0E10 (1 s to 1 hour) in Core 5.4, 0x0384 (15
    /// minutes) after reset. Core 4.2 allowed up to 0xA1B8, so a decoded command is
    /// refused only for 0, which no version allows.
    public var rpaTimeout: UInt16

    /// The timeout's range in Core 5.4 (§7.8.45).
    public static let validTimeouts: ClosedRange<UInt16> = 0x0001...0x0E10

    /// HCI_LE_Set_Resolvable_Private_Address_Timeout with these parameters.
    public init(rpaTimeout: UInt16) { self.rpaTimeout = rpaTimeout }

    public var parametersLength: Int { 2 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(rpaTimeout)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Set Resolvable Private Address Timeout parameters", length: 2)
        rpaTimeout = p.littleEndianUInt16(at: 0)
        guard rpaTimeout != 0 else {
            throw .invalidField("LE Set Resolvable Private Address Timeout RPA_Timeout", value: Int(rpaTimeout))
        }
    }
}
