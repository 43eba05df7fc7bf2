import SwiftATTCore

/// Eddystone-EID: an ephemeral identifier that rotates, resolvable only by its owner.
///
/// Frame type 0x30, the calibrated TX power at 0 m, and an 8-octet identifier; 10 octets.
public struct EddystoneEID: Hashable, Sendable, CustomStringConvertible {
    /// The frame type: the service data's first octet.
    public static let frameType: UInt8 = 0x30

    /// Calibrated TX power at 0 m, in dBm.
    public var txPower: Int8
    /// Eight octets.
    public let identifier: ArraySlice<UInt8>

    /// Throws when `identifier` is not 8 bytes.
    public init(txPower: Int8, identifier: [UInt8]) throws(ADEncodingError) {
        guard identifier.count == 8 else {
            throw .invalidFieldLength(field: "Eddystone-EID identifier", length: identifier.count, required: 8)
        }
        self.txPower = txPower
        self.identifier = identifier[...]
    }

    /// Decodes a frame, frame type first; `nil` unless it is 10 octets of type 0x30.
    public init?(frame: ArraySlice<UInt8>) {
        guard frame.count == 10, frame.first == Self.frameType else { return nil }
        txPower = Int8(bitPattern: frame.byte(at: 1))
        identifier = frame.bytes(from: 2)
    }

    /// The frame as the Service Data under 0xFEAA carries it, frame type first.
    public var frameBytes: [UInt8] { [Self.frameType, UInt8(bitPattern: txPower)] + identifier }

    public var description: String { "Eddystone-EID \(Hex.encode(identifier)), \(txPower) dBm at 0 m" }
}
