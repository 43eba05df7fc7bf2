import SwiftATTCore
import SwiftATTSMP
import Testing

/// One SMP PDU's octets, the value they decode to, and where the octets come from.
///
/// Sources, most authoritative first:
/// - the Core spec's sample data (Core 5.4 Vol 3 Part H §2.2.3 for c1, §2.3.5.6.1 for the
///   debug key, Appendix D for f4, f5, f6, ah and AES-CMAC): the spec gives the values,
///   most significant octet first; the PDU puts them least significant first;
/// - real traffic: the LE Secure Connections pairing between two Bumble hosts in
///   Fixtures/hci/scan-pair-*.btsnoop (frame numbers as Wireshark counts them);
/// - BlueZ: tools/smp-tester.c, which feeds these PDUs to the Linux kernel, and
///   doc/btmon-smp.rst, whose btmon decodings the octets here spell out again;
/// - hand-worked from the command's section where no one else has the PDU.
struct SMPVector: Sendable, CustomTestStringConvertible {
    let name: String
    let hex: String
    let pdu: SMPPDU
    let source: String

    init(_ name: String, _ hex: String, _ pdu: SMPPDU, source: String) {
        self.name = name
        self.hex = hex
        self.pdu = pdu
        self.source = source
    }

    var bytes: [UInt8] { octets(hex) }
    var testDescription: String { name }
}

/// Octets from hex with spaces for readability; a malformed literal yields a marker that
/// fails every comparison loudly.
func octets(_ hex: String) -> [UInt8] {
    (try? Hex.decode(hex)) ?? [0xDE, 0xAD, 0xBE, 0xEF]
}

/// The spec's debug public key (§2.3.5.6.1), most significant octet first.
let debugPublicKeyX = octets("20b003d2 f297be2c 5e2c83a7 e9f9a5b9 eff49111 acf4fddb cc030148 0e359de6")
let debugPublicKeyY = octets("dc809c49 652aeb6d 63329abf 5a52155c 766345c2 8fed3024 741c8ed0 1589d28b")

private let coreC1 = "Core 5.4 Vol 3 Part H §2.2.3, c1 sample data"
private let bumble = "Fixtures/hci/scan-pair-central.btsnoop"
private let bumblePeripheral = "Fixtures/hci/scan-pair-peripheral.btsnoop"
private let smpTester = "BlueZ tools/smp-tester.c"
private let btmon = "BlueZ doc/btmon-smp.rst, from btmon's decoding"
private let handWorked = "hand-worked from Core 5.4 Vol 3 Part H"

extension SMPVector {
    static let all: [SMPVector] = pairing + keyDistribution + secureConnections

    static let pairing: [SMPVector] = [
        SMPVector("Pairing Request: c1's preq", "01 01 00 00 10 07 07",
                  .pairingRequest(PairingFeatures(ioCapability: .displayYesNo, authenticationRequirements: [],
                                                  initiatorKeyDistribution: [.encryptionKey, .identityKey, .signingKey],
                                                  responderKeyDistribution: [.encryptionKey, .identityKey, .signingKey])),
                  source: "\(coreC1): preq = 0x07071000000101"),
        SMPVector("Pairing Request: Bumble, Secure Connections", "01 03 00 0d 10 03 03",
                  .pairingRequest(PairingFeatures(authenticationRequirements: [.bonding, .mitm, .secureConnections])),
                  source: "\(bumble) frame 54"),
        SMPVector("Pairing Request: smp-tester, SC and CT2", "01 03 00 29 10 0d 0d",
                  .pairingRequest(PairingFeatures(authenticationRequirements: [.bonding, .secureConnections, .ct2],
                                                  initiatorKeyDistribution: [.encryptionKey, .signingKey, .linkKey],
                                                  responderKeyDistribution: [.encryptionKey, .signingKey, .linkKey])),
                  source: "\(smpTester) smp_sc_req_1"),
        SMPVector("Pairing Request: smp-tester, legacy with MITM", "01 04 00 05 10 05 05",
                  .pairingRequest(PairingFeatures(ioCapability: .keyboardDisplay, authenticationRequirements: [.bonding, .mitm],
                                                  initiatorKeyDistribution: [.encryptionKey, .signingKey],
                                                  responderKeyDistribution: [.encryptionKey, .signingKey])),
                  source: "\(smpTester) smp_basic_req_2"),
        SMPVector("Pairing Request: btmon's example", "01 03 00 2d 10 06 06",
                  .pairingRequest(PairingFeatures(authenticationRequirements: [.bonding, .mitm, .secureConnections, .ct2],
                                                  initiatorKeyDistribution: [.identityKey, .signingKey],
                                                  responderKeyDistribution: [.identityKey, .signingKey])),
                  source: "\(btmon) (#497)"),
        SMPVector("Pairing Request: every reserved bit set, kept", "01 02 01 ff 07 f0 ff",
                  .pairingRequest(PairingFeatures(ioCapability: .keyboardOnly, oobDataPresent: true,
                                                  authenticationRequirements: AuthenticationRequirements(rawValue: 0xFF),
                                                  maximumEncryptionKeySize: 7,
                                                  initiatorKeyDistribution: KeyDistribution(rawValue: 0xF0),
                                                  responderKeyDistribution: KeyDistribution(rawValue: 0xFF))),
                  source: "\(handWorked) §3.5.1 and §3.6.1: reserved bits are ignored on receipt, so kept"),
        SMPVector("Pairing Response: c1's pres", "02 03 00 00 08 00 05",
                  .pairingResponse(PairingFeatures(authenticationRequirements: [], maximumEncryptionKeySize: 8,
                                                   initiatorKeyDistribution: [],
                                                   responderKeyDistribution: [.encryptionKey, .signingKey])),
                  source: "\(coreC1): pres = 0x05000800000302"),
        SMPVector("Pairing Response: Bumble, Secure Connections", "02 03 00 0d 10 03 03",
                  .pairingResponse(PairingFeatures(authenticationRequirements: [.bonding, .mitm, .secureConnections])),
                  source: "\(bumble) frame 56"),
        SMPVector("Pairing Response: smp-tester, SC", "02 03 00 09 10 0d 0d",
                  .pairingResponse(PairingFeatures(initiatorKeyDistribution: [.encryptionKey, .signingKey, .linkKey],
                                                   responderKeyDistribution: [.encryptionKey, .signingKey, .linkKey])),
                  source: "\(smpTester) smp_sc_rsp_1"),
        SMPVector("Pairing Response: btmon's example", "02 04 00 29 10 02 02",
                  .pairingResponse(PairingFeatures(ioCapability: .keyboardDisplay,
                                                   authenticationRequirements: [.bonding, .secureConnections, .ct2],
                                                   initiatorKeyDistribution: [.identityKey],
                                                   responderKeyDistribution: [.identityKey])),
                  source: "\(btmon) (#499)"),
        SMPVector("Pairing Response: OOB data, shortest key", "02 00 01 00 07 00 00",
                  .pairingResponse(PairingFeatures(ioCapability: .displayOnly, oobDataPresent: true,
                                                   authenticationRequirements: [], maximumEncryptionKeySize: 7,
                                                   initiatorKeyDistribution: [], responderKeyDistribution: [])),
                  source: "\(handWorked) §3.5.2"),
        SMPVector("Pairing Confirm: c1's output", "03 863bf1bec54da7d2ea888987ef3f1e1e",
                  .pairingConfirm(0x1e1e3fef_878988ea_d2a74dc5_bef13b86),
                  source: "\(coreC1): c1(k, r, preq, pres, …) = 0x1e1e3fef878988ead2a74dc5bef13b86"),
        SMPVector("Pairing Confirm: Bumble", "03 f20b2371782bf4a5a073704e1c1e51a6",
                  .pairingConfirm(0xa6511e1c_4e7073a0_a5f42b78_71230bf2),
                  source: "\(bumble) frame 64"),
        SMPVector("Pairing Random: c1's r", "04 e02e70c64e2788630e6fad5621d58357",
                  .pairingRandom(0x5783d521_56ad6f0e_6388274e_c6702ee0),
                  source: "\(coreC1): r = 0x5783D52156AD6F0E6388274EC6702EE0"),
        SMPVector("Pairing Random: Bumble, central", "04 db6f5cf9a1cdc79d250864d553d11b4b",
                  .pairingRandom(0x4b1bd153_d5640825_9dc7cda1_f95c6fdb),
                  source: "\(bumble) frame 65"),
        SMPVector("Pairing Random: Bumble, peripheral", "04 6b44136f2c5ceb4ddd08ecd6acc919cc",
                  .pairingRandom(0xcc19c9ac_d6ec08dd_4deb5c2c_6f13446b),
                  source: "\(bumble) frame 67"),
        SMPVector("Pairing Failed: Command Not Supported", "05 07", .pairingFailed(.commandNotSupported),
                  source: "\(smpTester) smp_nval_req_1_rsp (the kernel's answer to a Security Request sent to a peripheral)"),
        SMPVector("Pairing Failed: Encryption Key Size", "05 06", .pairingFailed(.encryptionKeySize),
                  source: "\(smpTester) smp_nval_req_2_rsp"),
        SMPVector("Pairing Failed: Invalid Parameters", "05 0a", .pairingFailed(.invalidParameters),
                  source: "\(smpTester) smp_nval_req_3_rsp (the kernel's answer to a 2-octet Pairing Request)"),
        SMPVector("Pairing Failed: Authentication Requirements", "05 03", .pairingFailed(.authenticationRequirements),
                  source: "\(btmon) (#505)"),
        SMPVector("Pairing Failed: Pairing Not Supported", "05 05", .pairingFailed(.pairingNotSupported),
                  source: "\(handWorked) §3.5.5 Table 3.7 (what a device that cannot pair answers)"),
        SMPVector("Pairing Failed: Key Rejected", "05 0f", .pairingFailed(.keyRejected),
                  source: "\(handWorked) §3.5.5 Table 3.7 (Linux sends it for a key it did not ask for)"),
        SMPVector("Security Request: no bonding", "0b 00", .securityRequest([]),
                  source: "\(smpTester) smp_nval_req_1"),
        SMPVector("Security Request: bonding, MITM, SC", "0b 0d", .securityRequest([.bonding, .mitm, .secureConnections]),
                  source: "\(handWorked) §3.6.7"),
        SMPVector("Security Request: reserved bits kept", "0b c3",
                  .securityRequest(AuthenticationRequirements(rawValue: 0xC3)),
                  source: "\(handWorked) §3.6.7: Bonding_Flags 0b11 and RFU bits, kept as received"),
        SMPVector("Pairing Keypress Notification: entry started", "0e 00", .pairingKeypressNotification(.entryStarted),
                  source: "\(handWorked) §3.5.8"),
        SMPVector("Pairing Keypress Notification: digit entered", "0e 01", .pairingKeypressNotification(.digitEntered),
                  source: "\(handWorked) §3.5.8"),
        SMPVector("Pairing Keypress Notification: digit erased", "0e 02", .pairingKeypressNotification(.digitErased),
                  source: "\(handWorked) §3.5.8"),
        SMPVector("Pairing Keypress Notification: cleared", "0e 03", .pairingKeypressNotification(.cleared),
                  source: "\(handWorked) §3.5.8"),
        SMPVector("Pairing Keypress Notification: entry completed", "0e 04", .pairingKeypressNotification(.entryCompleted),
                  source: "\(handWorked) §3.5.8"),
    ]

    static let keyDistribution: [SMPVector] = [
        SMPVector("Encryption Information: f5's LTK", "06 380a7594b522059823cdd76911798669",
                  .encryptionInformation(longTermKey: 0x69867911_69d7cd23_980522b5_94750a38),
                  source: "Core 5.4 Vol 3 Part H Appendix D, f5 sample data: LTK"),
        SMPVector("Central Identification: btmon's example", "07 3412 efcdab8967452301",
                  .centralIdentification(ediv: 0x1234, rand: 0x0123_4567_89ab_cdef),
                  source: "\(btmon) (#521)"),
        SMPVector("Central Identification: zero EDIV and Rand", "07 0000 0000000000000000",
                  .centralIdentification(ediv: 0, rand: 0),
                  source: "\(handWorked) §3.6.3, the values \(bumblePeripheral)'s LE Long Term Key Request carries"),
        SMPVector("Identity Information: Bumble's zero IRK", "08 00000000000000000000000000000000",
                  .identityInformation(identityResolvingKey: 0),
                  source: "\(bumble) frame 74"),
        SMPVector("Identity Information: ah's IRK", "08 9b7d390aa610103405adc857a33402ec",
                  .identityInformation(identityResolvingKey: 0xec0234a3_57c8ad05_341010a6_0a397d9b),
                  source: "Core 5.4 Vol 3 Part H Appendix D, ah sample data: IRK"),
        SMPVector("Identity Information: btmon's example", "08 00112233445566778899aabbccddeeff",
                  .identityInformation(identityResolvingKey: 0xffeeddcc_bbaa9988_77665544_33221100),
                  source: "\(btmon) (#519; btmon prints a key in wire order)"),
        SMPVector("Identity Address Information: Bumble, peripheral", "09 00 02f0f0f0f0f0",
                  .identityAddressInformation(BluetoothAddress(0xF0F0_F0F0_F002, kind: .public)),
                  source: "\(bumble) frame 75"),
        SMPVector("Identity Address Information: Bumble, central", "09 00 01f0f0f0f0f0",
                  .identityAddressInformation(BluetoothAddress(0xF0F0_F0F0_F001, kind: .public)),
                  source: "\(bumble) frame 77"),
        SMPVector("Identity Address Information: f5's A1", "09 00 cebf37371256",
                  .identityAddressInformation(BluetoothAddress(0x5612_3737_BFCE, kind: .public)),
                  source: "Core 5.4 Vol 3 Part H Appendix D, f5 sample data: A1 = 0x00561237 37bfce (type, then address)"),
        SMPVector("Identity Address Information: btmon's example", "09 00 554433221100",
                  .identityAddressInformation(BluetoothAddress(0x0011_2233_4455, kind: .public)),
                  source: "\(btmon) (#521)"),
        SMPVector("Identity Address Information: static random", "09 01 010000175ac0",
                  .identityAddressInformation(BluetoothAddress(0xC05A_1700_0001, kind: .random)),
                  source: "\(handWorked) §3.6.5, with the static random address of \(bumble)'s central"),
        SMPVector("Identity Address Information: c1's ia, random", "09 01 a6a5a4a3a2a1",
                  .identityAddressInformation(BluetoothAddress(0xA1A2_A3A4_A5A6, kind: .random)),
                  source: "\(coreC1): ia = 0xA1A2A3A4A5A6, iat = 1 (not static: the codec keeps it)"),
        SMPVector("Signing Information: AES-CMAC's key", "0a 3c4fcf098815f7aba6d2ae2816157e2b",
                  .signingInformation(signatureKey: 0x2b7e1516_28aed2a6_abf71588_09cf4f3c),
                  source: "Core 5.4 Vol 3 Part H Appendix D, AES-CMAC sample data (RFC 4493): K"),
    ]

    static let secureConnections: [SMPVector] = [
        SMPVector("Pairing Public Key: the debug key",
                  "0c e69d350e480103ccdbfdf4ac1191f4efb9a5f9e9a7832c5e2cbe97f2d203b020"
                      + "8bd28915d08e1c742430ed8fc24563765c15525abf9a32636deb2a65499c80dc",
                  .pairingPublicKey(x: debugPublicKeyX, y: debugPublicKeyY),
                  source: "Core 5.4 Vol 3 Part H §2.3.5.6.1, the debug public key"),
        // Each coordinate below, read most significant octet first, puts the key on P-256;
        // read in wire order it does not (checked when the table was written).
        SMPVector("Pairing Public Key: Bumble, peripheral",
                  "0c 9bc8520d944aa136ae9ba865699f7dac91c9c974c5bfae410001bde420bdd8bc"
                      + "ef3871037107787bb45ba1042ab32ca0fd252678a75969d62836a1d689bad124",
                  .pairingPublicKey(x: octets("bcd8bd20e4bd010041aebfc574c9c991ac7d9f6965a89bae36a14a940d52c89b"),
                                    y: octets("24d1ba89d6a13628d66959a7782625fda02cb32a04a15bb47b780771037138ef")),
                  source: "\(bumble) frame 63"),
        SMPVector("Pairing Public Key: Bumble, central",
                  "0c 98d1db6f7f1033bc81c8b2c69b49b7b5ccbba7b4f06ac11a7a392dc2401da785"
                      + "088253627742d0a76c9acae639ba84d00995ff72f46615814db4844e11bde80b",
                  .pairingPublicKey(x: octets("85a71d40c22d397a1ac16af0b4a7bbccb5b7499bc6b2c881bc33107f6fdbd198"),
                                    y: octets("0be8bd114e84b44d811566f472ff9509d084ba39e6ca9a6ca7d0427762538208")),
                  source: "\(bumblePeripheral) frame 45"),
        SMPVector("Pairing Confirm: f4's output", "03 2d8774a9bea1edf11cbda907f116c9f2",
                  .pairingConfirm(0xf2c916f1_07a9bd1c_f1eda1be_a974872d),
                  source: "Core 5.4 Vol 3 Part H Appendix D, f4 sample data: output"),
        SMPVector("Pairing Random: f4's and f5's N1", "04 abae2b71ecb2ffff3e7377d15484cbd5",
                  .pairingRandom(0xd5cb8454_d177733e_ffffb2ec_712baeab),
                  source: "Core 5.4 Vol 3 Part H Appendix D, f5 sample data: N1"),
        SMPVector("Pairing DHKey Check: f6's output", "0d 618f95da090b6cd2c5e8d09c9873c4e3",
                  .pairingDHKeyCheck(0xe3c47398_9cd0e8c5_d26c0b09_da958f61),
                  source: "Core 5.4 Vol 3 Part H Appendix D, f6 sample data: output"),
        SMPVector("Pairing DHKey Check: Bumble, central", "0d af8dce80036ab568bbe30adba5ff646a",
                  .pairingDHKeyCheck(0x6a64ffa5_db0ae3bb_68b56a03_80ce8daf),
                  source: "\(bumble) frame 68"),
        SMPVector("Pairing DHKey Check: Bumble, peripheral", "0d a65364b59bb96ca9826d0913609c11ff",
                  .pairingDHKeyCheck(0xff119c60_13096d82_a96cb99b_b56453a6),
                  source: "\(bumble) frame 70"),
    ]
}
