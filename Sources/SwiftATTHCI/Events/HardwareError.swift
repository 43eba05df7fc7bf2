import SwiftATTCore

/// HCI_Hardware_Error: the controller failed; the host should reset it.
/// Core 5.4 Vol 4 Part E §7.7.16.
public struct HardwareError: HCIEventParameters, Hashable {
    public static let code: UInt8 = 0x10
    /// Hardware_Code: meaning defined by the controller's maker.
    public var hardwareCode: UInt8

    /// HCI_Hardware_Error with these parameters, as a controller (an emulated one, a test) sends
    /// it.
    public init(hardwareCode: UInt8) { self.hardwareCode = hardwareCode }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "Hardware Error", length: 1)
        hardwareCode = p.byte(at: 0)
    }

    public var parametersLength: Int { 1 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(hardwareCode)
    }
}
