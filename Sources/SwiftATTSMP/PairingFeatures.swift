import SwiftATTCore

/// The six parameters Pairing Request and Pairing Response share: what each side can do
/// and wants, exchanged in pairing's first phase.
///
/// Core 5.4 Vol 3 Part H §3.5.1 and §3.5.2 (one layout for both). Both PDUs, exactly as
/// sent, are inputs to the legacy confirm value (c1's preq and pres, §2.2.3); the codec
/// re-encodes every PDU it decodes to the very octets it read, so the pairing machine may
/// hash `SMPPDU.bytes` rather than keep the received buffer.
public struct PairingFeatures: Sendable, Hashable {
    /// What the device can show and enter, which picks the association model.
    public var ioCapability: IOCapability
    /// The OOB data flag: 0x01 when this side holds out-of-band data from the peer.
    /// The wire's 0x02–0xFF are reserved and fail to decode.
    public var oobDataPresent: Bool
    /// Bonding, MITM protection, Secure Connections, keypress notifications, CT2.
    public var authenticationRequirements: AuthenticationRequirements
    /// The longest key this side supports, in octets. §3.5.1 allows 7 to 16; a PDU with
    /// any other value fails to decode. The codec encodes whatever this holds.
    public var maximumEncryptionKeySize: UInt8
    /// The keys the initiator offers (in a request) or will distribute (in a response).
    public var initiatorKeyDistribution: KeyDistribution
    /// The keys the responder is asked for (in a request) or will distribute (in a response).
    public var responderKeyDistribution: KeyDistribution

    /// The valid range of Maximum Encryption Key Size (§3.5.1).
    public static let encryptionKeySizes: ClosedRange<UInt8> = 7...16

    /// Defaults for a device with no display or keyboard that bonds over LE Secure
    /// Connections with a full-length key, and exchanges LTK and identity both ways.
    public init(
        ioCapability: IOCapability = .noInputNoOutput,
        oobDataPresent: Bool = false,
        authenticationRequirements: AuthenticationRequirements = [.bonding, .secureConnections],
        maximumEncryptionKeySize: UInt8 = 16,
        initiatorKeyDistribution: KeyDistribution = [.encryptionKey, .identityKey],
        responderKeyDistribution: KeyDistribution = [.encryptionKey, .identityKey]
    ) {
        self.ioCapability = ioCapability
        self.oobDataPresent = oobDataPresent
        self.authenticationRequirements = authenticationRequirements
        self.maximumEncryptionKeySize = maximumEncryptionKeySize
        self.initiatorKeyDistribution = initiatorKeyDistribution
        self.responderKeyDistribution = responderKeyDistribution
    }

    /// Where each parameter sits in the PDU (octet 0 is the code).
    enum Field {
        static let ioCapability = 1
        static let oobDataFlag = 2
        static let authReq = 3
        static let maximumEncryptionKeySize = 4
        static let initiatorKeyDistribution = 5
        static let responderKeyDistribution = 6
    }

    /// Reads the parameters of a PDU whose length `SMPPDU` has already checked, and
    /// rejects the first reserved value in octet order.
    init(parameters pdu: ArraySlice<UInt8>, of code: SMPCode) throws(SMPDecodingError) {
        let io = pdu.byte(at: Field.ioCapability)
        guard let ioCapability = IOCapability(rawValue: io) else {
            throw .reservedValue(code: code, field: .ioCapability, value: io)
        }
        let oob = pdu.byte(at: Field.oobDataFlag)
        guard oob <= 1 else { throw .reservedValue(code: code, field: .oobDataFlag, value: oob) }
        let keySize = pdu.byte(at: Field.maximumEncryptionKeySize)
        guard Self.encryptionKeySizes.contains(keySize) else {
            throw .reservedValue(code: code, field: .maximumEncryptionKeySize, value: keySize)
        }
        self.init(
            ioCapability: ioCapability,
            oobDataPresent: oob == 1,
            authenticationRequirements: AuthenticationRequirements(rawValue: pdu.byte(at: Field.authReq)),
            maximumEncryptionKeySize: keySize,
            initiatorKeyDistribution: KeyDistribution(rawValue: pdu.byte(at: Field.initiatorKeyDistribution)),
            responderKeyDistribution: KeyDistribution(rawValue: pdu.byte(at: Field.responderKeyDistribution))
        )
    }

    /// Writes the six parameter octets, in `Field` order.
    func encodeParameters(into writer: inout ByteWriter) {
        writer.write(ioCapability.rawValue)
        writer.write(UInt8(oobDataPresent ? 1 : 0))
        writer.write(authenticationRequirements.rawValue)
        writer.write(maximumEncryptionKeySize)
        writer.write(initiatorKeyDistribution.rawValue)
        writer.write(responderKeyDistribution.rawValue)
    }
}
