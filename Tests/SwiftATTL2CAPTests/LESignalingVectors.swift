import SwiftATTCore
import SwiftATTL2CAP
import Testing

/// One LE signaling frame's octets, the identifier and command they decode to, and
/// where the octets come from.
///
/// Sources: the field layouts of Core 5.4 Vol 3 Part A §4 ("hand-worked"), and for one
/// frame of every command the octets Bumble 0.0.236 builds for the same values
/// (`bytes(L2CAP_…(…))` from bumble/l2cap.py, run in Tests/bench/.venv), which agree.
struct SignalingVector: Sendable, CustomTestStringConvertible {
    let name: String
    let hex: String
    let identifier: UInt8
    let command: LESignalingCommand
    let source: String

    init(_ name: String, _ hex: String, _ identifier: UInt8, _ command: LESignalingCommand, source: String) {
        self.name = name
        self.hex = hex
        self.identifier = identifier
        self.command = command
        self.source = source
    }

    var bytes: [UInt8] { octets(hex) }
    /// The command's data field: the frame past its 4-octet header.
    var data: [UInt8] { Array(bytes.dropFirst(4)) }
    var testDescription: String { name }
}

/// Octets from hex with spaces for readability; a malformed literal yields a marker that
/// fails every comparison loudly.
func octets(_ hex: String) -> [UInt8] {
    (try? Hex.decode(hex)) ?? [0xDE, 0xAD, 0xBE, 0xEF]
}

private let bumble = "Bumble 0.0.236, bytes() of the same command"
private func handWorked(_ section: String) -> String { "hand-worked from Core 5.4 Vol 3 Part A \(section)" }

extension SignalingVector {
    static let all: [SignalingVector] = [
        // §4.1 Command Reject
        SignalingVector("Command Reject: command not understood", "01 01 0200 0000", 1,
                        .commandReject(.commandNotUnderstood), source: bumble),
        SignalingVector("Command Reject: signaling MTU exceeded (23)", "01 02 0400 0100 1700", 2,
                        .commandReject(.signalingMTUExceeded(actualMTU: 23)), source: bumble),
        SignalingVector("Command Reject: invalid CID in request", "01 03 0600 0200 4000 4100", 3,
                        .commandReject(.invalidCIDInRequest(localCID: 0x0040, remoteCID: 0x0041)), source: bumble),
        // §4.6–4.7 Disconnection
        SignalingVector("Disconnection Request", "06 04 0400 4100 4000", 4,
                        .disconnectionRequest(.init(destinationCID: 0x0041, sourceCID: 0x0040)), source: bumble),
        SignalingVector("Disconnection Response", "07 04 0400 4100 4000", 4,
                        .disconnectionResponse(.init(destinationCID: 0x0041, sourceCID: 0x0040)), source: bumble),
        // §4.20–4.21 Connection Parameter Update
        SignalingVector("Connection Parameter Update Request", "12 05 0800 1800 2800 0000 c800", 5,
                        .connectionParameterUpdateRequest(.init(intervalMin: 24, intervalMax: 40, peripheralLatency: 0, timeoutMultiplier: 200)),
                        source: bumble),
        SignalingVector("Connection Parameter Update Response: accepted", "13 06 0200 0000", 6,
                        .connectionParameterUpdateResponse(.init(result: .accepted)), source: handWorked("§4.21")),
        SignalingVector("Connection Parameter Update Response: rejected", "13 05 0200 0100", 5,
                        .connectionParameterUpdateResponse(.init(result: .rejected)), source: bumble),
        // §4.22–4.23 LE Credit Based Connection
        SignalingVector("LE Credit Based Connection Request", "14 06 0a00 8000 4000 0008 f700 0a00", 6,
                        .leCreditBasedConnectionRequest(.init(spsm: 0x0080, sourceCID: 0x0040, mtu: 2048, mps: 247, initialCredits: 10)),
                        source: bumble),
        SignalingVector("LE Credit Based Connection Request: largest values", "14 f0 0a00 ff00 7f00 ffff fdff ffff", 0xF0,
                        .leCreditBasedConnectionRequest(.init(spsm: 0x00FF, sourceCID: 0x007F, mtu: 0xFFFF, mps: 0xFFFD, initialCredits: 0xFFFF)),
                        source: handWorked("§4.22")),
        SignalingVector("LE Credit Based Connection Response: success", "15 06 0a00 4100 0002 fb00 0800 0000", 6,
                        .leCreditBasedConnectionResponse(.init(destinationCID: 0x0041, mtu: 512, mps: 251, initialCredits: 8, result: .success)),
                        source: bumble),
        SignalingVector("LE Credit Based Connection Response: SPSM not supported", "15 07 0a00 0000 0000 0000 0000 0200", 7,
                        .leCreditBasedConnectionResponse(.refused(.spsmNotSupported)), source: bumble),
        SignalingVector("LE Credit Based Connection Response: unacceptable parameters", "15 08 0a00 0000 0000 0000 0000 0b00", 8,
                        .leCreditBasedConnectionResponse(.refused(.unacceptableParameters)), source: handWorked("§4.23")),
        // §4.24 Flow Control Credit Indication
        SignalingVector("Flow Control Credit Indication", "16 08 0400 4000 0500", 8,
                        .flowControlCreditIndication(.init(cid: 0x0040, credits: 5)), source: bumble),
        SignalingVector("Flow Control Credit Indication: 65535 credits", "16 09 0400 7f00 ffff", 9,
                        .flowControlCreditIndication(.init(cid: 0x007F, credits: 0xFFFF)), source: handWorked("§4.24")),
        // §4.25–4.26 Credit Based Connection (ECFC)
        SignalingVector("Credit Based Connection Request: EATT, five channels",
                        "17 09 1200 2700 0502 f700 0300 4000 4100 4200 4300 4400", 9,
                        .creditBasedConnectionRequest(.init(spsm: .enhancedATT, mtu: 517, mps: 247, initialCredits: 3,
                                                            sourceCIDs: [0x40, 0x41, 0x42, 0x43, 0x44])),
                        source: bumble),
        SignalingVector("Credit Based Connection Request: one channel", "17 0a 0a00 8000 4000 4000 0100 7f00", 10,
                        .creditBasedConnectionRequest(.init(spsm: 0x0080, mtu: 64, mps: 64, initialCredits: 1, sourceCIDs: [0x7F])),
                        source: handWorked("§4.25")),
        SignalingVector("Credit Based Connection Response: some refused, insufficient resources",
                        "18 09 1200 4000 4000 0100 0400 5000 5100 0000 0000 0000", 9,
                        .creditBasedConnectionResponse(.init(mtu: 64, mps: 64, initialCredits: 1, result: .insufficientResources,
                                                             destinationCIDs: [0x50, 0x51, 0, 0, 0])),
                        source: bumble),
        SignalingVector("Credit Based Connection Response: success, two channels", "18 0b 0c00 0502 f700 0a00 0000 4000 4100", 11,
                        .creditBasedConnectionResponse(.init(mtu: 517, mps: 247, initialCredits: 10, result: .success,
                                                             destinationCIDs: [0x40, 0x41])),
                        source: handWorked("§4.26")),
        SignalingVector("Credit Based Connection Response: invalid parameters, no CIDs", "18 0c 0800 0000 0000 0000 0c00", 12,
                        .creditBasedConnectionResponse(.refused(.invalidParameters, count: 0)), source: handWorked("§4.26")),
        SignalingVector("Credit Based Connection Response: authorization pending", "18 0d 0a00 0000 0000 0000 0f00 0000", 13,
                        .creditBasedConnectionResponse(.refused(.pendingAuthorization, count: 1)), source: handWorked("§4.26")),
        // §4.27–4.28 Credit Based Reconfigure
        SignalingVector("Credit Based Reconfigure Request: two channels", "19 0a 0800 0004 0002 5000 5100", 10,
                        .creditBasedReconfigureRequest(.init(mtu: 1024, mps: 512, destinationCIDs: [0x50, 0x51])), source: bumble),
        SignalingVector("Credit Based Reconfigure Request: five channels", "19 0e 0e00 ffff fdff 4000 4100 4200 4300 4400", 14,
                        .creditBasedReconfigureRequest(.init(mtu: 0xFFFF, mps: 0xFFFD, destinationCIDs: [0x40, 0x41, 0x42, 0x43, 0x44])),
                        source: handWorked("§4.27")),
        SignalingVector("Credit Based Reconfigure Response: invalid Destination CID", "1a 0a 0200 0300", 10,
                        .creditBasedReconfigureResponse(.init(result: .invalidDestinationCID)), source: bumble),
        SignalingVector("Credit Based Reconfigure Response: success", "1a 0f 0200 0000", 15,
                        .creditBasedReconfigureResponse(.init(result: .success)), source: handWorked("§4.28")),
    ]
}
