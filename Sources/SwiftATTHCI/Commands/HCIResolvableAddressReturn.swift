import SwiftATTCore

/// Return parameters that are a status and the resolvable private address the
/// controller uses now for a resolving-list entry (LE Read Peer Resolvable Address, LE
/// Read Local Resolvable Address). Core 5.4 Vol 4 Part E §7.8.42–§7.8.43.
public struct HCIResolvableAddressReturn: HCIReturnParameters, ByteEncodable, Hashable {
    public var status: HCIStatus
    /// The address, always of the random kind.
    public var resolvableAddress: BluetoothAddress

    /// Return parameters as a controller returns them (an emulated one, a test).
    public init(status: HCIStatus, resolvableAddress: BluetoothAddress) {
        self.status = status
        self.resolvableAddress = BluetoothAddress(resolvableAddress.value, kind: .random)
    }

    public init(returnParameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        let p = try HCIWire.returnBlock(returnParameters, "resolvable address return parameters", length: 7)
        status = HCIStatus(p.byte(at: 0))
        resolvableAddress = p.address(at: 1, kind: .random)
    }

    public var encodedLength: Int { 7 }

    public func encode(into writer: inout ByteWriter) {
        writer.write(status.rawValue)
        resolvableAddress.encode(into: &writer)
    }
}
