@_exported import SwiftATTCore

/// Any Security Manager Protocol PDU: the code and its parameters.
///
/// Core 5.4 Vol 3 Part H §3.3 (the format), §3.5 (pairing) and §3.6 (key distribution).
/// Every command has one fixed length, checked once before any field is read; every
/// value a PDU can carry is kept exactly (reserved bits included), so a decoded PDU
/// encodes back to the octets it came from. That matters beyond tidiness: the legacy
/// confirm value hashes the Pairing Request and Response as they were sent (§2.2.3).
///
/// 128-bit values (confirm, random, keys, DHKey check) are numbers, as the crypto
/// functions of §2.2 take them; on the wire every multi-octet field goes least
/// significant octet first, and the codec converts.
public enum SMPPDU: Sendable, Hashable {
    /// Pairing Request: the initiator starts pairing with its features (§3.5.1).
    case pairingRequest(PairingFeatures)
    /// Pairing Response: the responder's features (§3.5.2).
    case pairingResponse(PairingFeatures)
    /// Pairing Confirm: a side's commitment to the random value it will reveal (§3.5.3).
    case pairingConfirm(UInt128)
    /// Pairing Random: the random value the confirm committed to (§3.5.4).
    case pairingRandom(UInt128)
    /// Pairing Failed: pairing stopped, and why (§3.5.5).
    case pairingFailed(PairingFailureReason)
    /// Encryption Information: the LTK that LE legacy pairing distributes (§3.6.2).
    case encryptionInformation(longTermKey: UInt128)
    /// Central Identification: the EDIV and Rand that identify that LTK (§3.6.3).
    case centralIdentification(ediv: UInt16, rand: UInt64)
    /// Identity Information: the IRK that resolves the sender's private addresses (§3.6.4).
    case identityInformation(identityResolvingKey: UInt128)
    /// Identity Address Information: the sender's public or static random address (§3.6.5).
    /// The codec keeps any random address; whether it is static is the pairing machine's check.
    case identityAddressInformation(BluetoothAddress)
    /// Signing Information: the CSRK for signed writes (§3.6.6).
    case signingInformation(signatureKey: UInt128)
    /// Security Request: a peripheral asks the central to pair or encrypt (§3.6.7).
    case securityRequest(AuthenticationRequirements)
    /// Pairing Public Key: the sender's P-256 public key (§3.5.6). Each coordinate is 32
    /// octets, most significant first (the order of the spec's sample data and of the
    /// crypto functions); the wire carries each least significant octet first.
    case pairingPublicKey(x: [UInt8], y: [UInt8])
    /// Pairing DHKey Check: Ea or Eb, proof that both sides hold the same DHKey (§3.5.7).
    case pairingDHKeyCheck(UInt128)
    /// Pairing Keypress Notification: passkey entry progress (§3.5.8).
    case pairingKeypressNotification(KeypressNotificationType)

    /// Where each command's parameters sit (octet 0 is the code). Pairing Request and
    /// Response name theirs in `PairingFeatures.Field`.
    enum Field {
        /// Every one-octet parameter: Reason, AuthReq, Notification Type, AddrType.
        static let octet = 1
        /// Every 128-bit parameter: confirm, random, LTK, IRK, CSRK, DHKey check.
        static let value128 = 1..<17
        static let ediv = 1..<3
        static let rand = 3..<11
        static let bdAddr = 2..<8
        static let publicKeyX = 1..<33
        static let publicKeyY = 33..<65
        /// Octets in each public key coordinate.
        static let coordinateLength = 32
    }

    /// Decodes one whole PDU, code first, from a slice of the caller's bytes (an L2CAP
    /// frame's payload on CID 0x0006 or 0x0007).
    ///
    /// Checks the length once for the code, then reads the fields; a field with a
    /// reserved value throws `reservedValue`, the first in octet order. Never traps.
    public init(decoding pdu: ArraySlice<UInt8>) throws(SMPDecodingError) {
        guard let first = pdu.first else { throw .empty }
        guard let code = SMPCode(rawValue: first) else { throw .unknownCode(first) }
        guard pdu.count == code.pduLength else {
            throw .invalidLength(code: code, expected: code.pduLength, actual: pdu.count)
        }
        switch code {
        case .pairingRequest:
            self = .pairingRequest(try PairingFeatures(parameters: pdu, of: code))
        case .pairingResponse:
            self = .pairingResponse(try PairingFeatures(parameters: pdu, of: code))
        case .pairingConfirm:
            self = .pairingConfirm(pdu.littleEndianUInt128(at: Field.value128))
        case .pairingRandom:
            self = .pairingRandom(pdu.littleEndianUInt128(at: Field.value128))
        case .pairingFailed:
            let value = pdu.byte(at: Field.octet)
            guard let reason = PairingFailureReason(rawValue: value) else {
                throw .reservedValue(code: code, field: .reason, value: value)
            }
            self = .pairingFailed(reason)
        case .encryptionInformation:
            self = .encryptionInformation(longTermKey: pdu.littleEndianUInt128(at: Field.value128))
        case .centralIdentification:
            self = .centralIdentification(ediv: pdu.littleEndianUInt16(at: Field.ediv),
                                          rand: pdu.littleEndianUInt64(at: Field.rand.lowerBound))
        case .identityInformation:
            self = .identityInformation(identityResolvingKey: pdu.littleEndianUInt128(at: Field.value128))
        case .identityAddressInformation:
            let value = pdu.byte(at: Field.octet)
            guard let kind = BluetoothAddress.Kind(rawValue: value) else {
                throw .reservedValue(code: code, field: .addressType, value: value)
            }
            self = .identityAddressInformation(BluetoothAddress(littleEndianBytes: pdu.bytes(at: Field.bdAddr), kind: kind))
        case .signingInformation:
            self = .signingInformation(signatureKey: pdu.littleEndianUInt128(at: Field.value128))
        case .securityRequest:
            self = .securityRequest(AuthenticationRequirements(rawValue: pdu.byte(at: Field.octet)))
        case .pairingPublicKey:
            self = .pairingPublicKey(x: Array(pdu.bytes(at: Field.publicKeyX).reversed()),
                                     y: Array(pdu.bytes(at: Field.publicKeyY).reversed()))
        case .pairingDHKeyCheck:
            self = .pairingDHKeyCheck(pdu.littleEndianUInt128(at: Field.value128))
        case .pairingKeypressNotification:
            let value = pdu.byte(at: Field.octet)
            guard let type = KeypressNotificationType(rawValue: value) else {
                throw .reservedValue(code: code, field: .notificationType, value: value)
            }
            self = .pairingKeypressNotification(type)
        }
    }

    /// Decodes one whole PDU held in an array.
    public init(decoding pdu: [UInt8]) throws(SMPDecodingError) {
        try self.init(decoding: pdu[...])
    }

    /// The PDU's command code.
    public var code: SMPCode {
        switch self {
        case .pairingRequest: return .pairingRequest
        case .pairingResponse: return .pairingResponse
        case .pairingConfirm: return .pairingConfirm
        case .pairingRandom: return .pairingRandom
        case .pairingFailed: return .pairingFailed
        case .encryptionInformation: return .encryptionInformation
        case .centralIdentification: return .centralIdentification
        case .identityInformation: return .identityInformation
        case .identityAddressInformation: return .identityAddressInformation
        case .signingInformation: return .signingInformation
        case .securityRequest: return .securityRequest
        case .pairingPublicKey: return .pairingPublicKey
        case .pairingDHKeyCheck: return .pairingDHKeyCheck
        case .pairingKeypressNotification: return .pairingKeypressNotification
        }
    }

    /// The wire form in a new array of exactly `encodedLength` octets.
    public var bytes: [UInt8] { encoded() }

    /// Appends the wire form to `bytes` (which may already hold, say, an L2CAP header).
    public func encode(into bytes: inout [UInt8]) {
        encode(appendingTo: &bytes)
    }
}

extension SMPPDU: ByteEncodable {
    /// Always the code's fixed length (`SMPCode.pduLength`).
    public var encodedLength: Int { code.pduLength }

    /// Writes the code and parameters.
    ///
    /// A public key coordinate is written as a 32-octet number: an array shorter than 32
    /// octets is the same number without its leading zeros, and is padded with them; a
    /// longer one (a leading zero sign octet, as ASN.1 integers carry) keeps its low 32
    /// octets. A P-256 coordinate is below 2^256, so no valid key loses a digit.
    public func encode(into writer: inout ByteWriter) {
        writer.write(code.rawValue)
        switch self {
        case let .pairingRequest(features), let .pairingResponse(features):
            features.encodeParameters(into: &writer)
        case let .pairingConfirm(value), let .pairingRandom(value), let .pairingDHKeyCheck(value),
             let .encryptionInformation(value), let .identityInformation(value), let .signingInformation(value):
            writer.write(value)
        case let .pairingFailed(reason):
            writer.write(reason.rawValue)
        case let .centralIdentification(ediv, rand):
            writer.write(ediv)
            writer.write(rand)
        case let .identityAddressInformation(address):
            writer.write(address.kind.rawValue)
            address.encode(into: &writer)
        case let .securityRequest(requirements):
            writer.write(requirements.rawValue)
        case let .pairingPublicKey(x, y):
            Self.writeCoordinate(x, into: &writer)
            Self.writeCoordinate(y, into: &writer)
        case let .pairingKeypressNotification(type):
            writer.write(type.rawValue)
        }
    }

    /// Writes a big-endian coordinate as 32 octets, least significant first.
    private static func writeCoordinate(_ bigEndian: [UInt8], into writer: inout ByteWriter) {
        var index = bigEndian.endIndex
        for _ in 0..<Field.coordinateLength {
            if index > bigEndian.startIndex {
                index -= 1
                writer.write(bigEndian[index])
            } else {
                writer.write(UInt8(0))
            }
        }
    }
}
