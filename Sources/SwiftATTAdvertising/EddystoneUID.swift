import SwiftATTCore

/// Eddystone-UID: a 10-byte namespace and a 6-byte instance identifying one beacon.
///
/// Frame type 0x00, the calibrated TX power at 0 m (signed dBm), namespace, instance, and
/// two reserved octets that must be zero. Frames without the reserved octets (18 bytes)
/// are accepted too; the reserved octets are kept so the frame re-encodes as it came.
public struct EddystoneUID: Hashable, Sendable, CustomStringConvertible {
    /// The frame type: the service data's first octet.
    public static let frameType: UInt8 = 0x00

    /// Calibrated TX power at 0 m, in dBm.
    public var txPower: Int8
    /// Ten octets.
    public let namespace: ArraySlice<UInt8>
    /// Six octets.
    public let instance: ArraySlice<UInt8>
    /// The reserved octets as sent: two, or none when the sender left them out.
    public let reserved: ArraySlice<UInt8>

    /// A UID frame with its reserved octets zero. Throws when the namespace is not 10 bytes
    /// or the instance not 6.
    public init(txPower: Int8, namespace: [UInt8], instance: [UInt8]) throws(ADEncodingError) {
        guard namespace.count == 10 else {
            throw .invalidFieldLength(field: "Eddystone-UID namespace", length: namespace.count, required: 10)
        }
        guard instance.count == 6 else {
            throw .invalidFieldLength(field: "Eddystone-UID instance", length: instance.count, required: 6)
        }
        self.txPower = txPower
        self.namespace = namespace[...]
        self.instance = instance[...]
        reserved = [0, 0][...]
    }

    /// Decodes a frame, frame type first; `nil` unless it is 18 or 20 octets of type 0x00.
    public init?(frame: ArraySlice<UInt8>) {
        guard frame.count == 18 || frame.count == 20, frame.first == Self.frameType else { return nil }
        txPower = Int8(bitPattern: frame.byte(at: 1))
        namespace = frame.bytes(at: 2, count: 10)
        instance = frame.bytes(at: 12, count: 6)
        reserved = frame.bytes(from: 18)
    }

    /// The frame as the Service Data under 0xFEAA carries it, frame type first.
    public var frameBytes: [UInt8] {
        [Self.frameType, UInt8(bitPattern: txPower)] + namespace + instance + reserved
    }

    /// `Eddystone-UID namespace 00112233445566778899 instance aabbccddeeff, -20 dBm at 0 m`.
    public var description: String {
        "Eddystone-UID namespace \(Hex.encode(namespace)) instance \(Hex.encode(instance)), \(txPower) dBm at 0 m"
    }
}
