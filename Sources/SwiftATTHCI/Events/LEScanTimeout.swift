import SwiftATTCore

/// HCI_LE_Scan_Timeout (LE Meta subevent 0x11): extended scanning with a duration ended.
/// Core 5.4 Vol 4 Part E §7.7.65.17.
public struct LEScanTimeout: LEMetaSubevent, Hashable {
    public static let subeventCode: UInt8 = 0x11

    /// HCI_LE_Scan_Timeout with these parameters, as a controller (an emulated one, a test) sends
    /// it.
    public init() {}

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Scan Timeout", length: 0)
    }

    public var parametersLength: Int { 0 }

    public func encodeParameters(into writer: inout ByteWriter) {}
}
