import SwiftATTCore

/// Google's Eddystone beacon frames, carried in Service Data under the 16-bit UUID 0xFEAA.
///
/// The first octet of the service data is the frame type: 0x00 UID, 0x10 URL, 0x20 TLM,
/// 0x30 EID. Eddystone's multi-octet numbers are big-endian. A frame that does not match
/// its layout decodes as `nil`; the service data itself stays available, so a scanner can
/// still show the raw bytes. (The Eddystone specification also asks advertisers to list
/// 0xFEAA in the Complete List of 16-bit Service UUIDs.)
public enum EddystoneFrame: Hashable, Sendable, CustomStringConvertible {
    /// Eddystone-UID: a fixed namespace and instance.
    case uid(EddystoneUID)
    /// Eddystone-URL: a compressed URL.
    case url(EddystoneURL)
    /// Eddystone-TLM: telemetry.
    case tlm(EddystoneTLM)
    /// Eddystone-EID: a rotating identifier.
    case eid(EddystoneEID)

    /// The service UUID Eddystone frames are sent under.
    public static let serviceUUID = BluetoothUUID(0xFEAA)

    /// The frame in `serviceData`; `nil` when the UUID is not 0xFEAA, the frame type is
    /// unknown, or the frame does not match its layout.
    public init?(_ serviceData: ServiceData) {
        guard serviceData.uuid == Self.serviceUUID, let frameType = serviceData.data.first else { return nil }
        let frame = serviceData.data
        switch frameType {
        case EddystoneUID.frameType:
            guard let f = EddystoneUID(frame: frame) else { return nil }
            self = .uid(f)
        case EddystoneURL.frameType:
            guard let f = EddystoneURL(frame: frame) else { return nil }
            self = .url(f)
        case EddystoneTLM.frameType:
            guard let f = EddystoneTLM(frame: frame) else { return nil }
            self = .tlm(f)
        case EddystoneEID.frameType:
            guard let f = EddystoneEID(frame: frame) else { return nil }
            self = .eid(f)
        default:
            return nil
        }
    }

    /// The frame type octet.
    public var frameType: UInt8 {
        switch self {
        case .uid: return EddystoneUID.frameType
        case .url: return EddystoneURL.frameType
        case .tlm: return EddystoneTLM.frameType
        case .eid: return EddystoneEID.frameType
        }
    }

    /// The frame's octets, frame type first.
    public var frameBytes: [UInt8] {
        switch self {
        case let .uid(f): return f.frameBytes
        case let .url(f): return f.frameBytes
        case let .tlm(f): return f.frameBytes
        case let .eid(f): return f.frameBytes
        }
    }

    /// The Service Data (UUID 0xFEAA) that carries this frame.
    public var serviceData: ServiceData {
        ServiceData(uuid: Self.serviceUUID, data: frameBytes)
    }

    public var description: String {
        switch self {
        case let .uid(f): return f.description
        case let .url(f): return f.description
        case let .tlm(f): return f.description
        case let .eid(f): return f.description
        }
    }
}
