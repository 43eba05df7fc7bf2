import SwiftATTCore
import SwiftATTHCI

/// Link-layer encryption over HCI: the commands that start it and answer for the key
/// (Core 5.4 Vol 4 Part E §7.8.24–§7.8.26, §7.5.7) and the events that tell both hosts
/// how it ended (§7.7.8, §7.7.39, §7.7.65.5; Disconnection Complete on a MIC failure).
/// `LinkEncryption` decides; this file answers the commands and sends the events.
///
/// ACL keeps crossing while a start waits for the peripheral's key. A real link layer
/// holds data back from LL_ENC_REQ to the end of the procedure (Vol 6 Part B §5.1.3.1)
/// and sends it afterwards, so its hosts see a delay and no loss; the loopback has no
/// air time to delay by, and holding packets would add a queue no host can observe.
/// One difference follows: on a real link whose keys differ, data sent during the start
/// is lost with the link; here it arrives before the Disconnection Complete.
extension LinkState {
    /// Encryption_Key_Size reported for every encrypted link. The controller gets a
    /// 16-octet LTK whatever size SMP agreed: the host shortens the key itself, by
    /// zeroing its high octets (Vol 3 Part H §2.3.4), and no controller can tell.
    static let encryptionKeySize: UInt8 = 16

    /// HCI_LE_Enable_Encryption: only the central of a link may start encryption (§7.8.24).
    mutating func enableEncryption(_ parameters: ArraySlice<UInt8>, from index: Int) {
        let opcode = LEEnableEncryption.opcode
        guard let c = try? LEEnableEncryption(parameters: parameters) else { return invalid(opcode, to: index, status: true) }
        guard let id = controllers[index].handles[c.connectionHandle], let slot = connections.index(forKey: id) else {
            return status(opcode, .unknownConnectionIdentifier, to: index)
        }
        guard connections.values[slot].central == index else { return status(opcode, .commandDisallowed, to: index) }
        let outcome = connections.values[slot].encryption.handle(.enable(c))
        status(opcode, outcome == .disallowed ? .commandDisallowed : .success, to: index)
        announce(outcome, on: connections.values[slot])
    }

    /// HCI_LE_Long_Term_Key_Request_Reply (§7.8.25).
    mutating func longTermKeyRequestReply(_ parameters: ArraySlice<UInt8>, from index: Int) {
        guard let c = try? LELongTermKeyRequestReply(parameters: parameters) else {
            return invalid(LELongTermKeyRequestReply.opcode, to: index)
        }
        answerKeyRequest(LELongTermKeyRequestReply.self, c.connectionHandle, with: c.longTermKey, from: index)
    }

    /// HCI_LE_Long_Term_Key_Request_Negative_Reply (§7.8.26).
    mutating func longTermKeyRequestNegativeReply(_ parameters: ArraySlice<UInt8>, from index: Int) {
        guard let c = try? LELongTermKeyRequestNegativeReply(parameters: parameters) else {
            return invalid(LELongTermKeyRequestNegativeReply.opcode, to: index)
        }
        answerKeyRequest(LELongTermKeyRequestNegativeReply.self, c.connectionHandle, with: nil, from: index)
    }

    /// HCI_Read_Encryption_Key_Size, from either side of a link (§7.5.7). A link not
    /// encrypted (a refresh in progress has paused it) answers Insufficient Security.
    mutating func readEncryptionKeySize(_ parameters: ArraySlice<UInt8>, from index: Int) {
        guard let c = try? ReadEncryptionKeySize(parameters: parameters) else { return invalid(ReadEncryptionKeySize.opcode, to: index) }
        let handle = c.connectionHandle
        let answer: ReadEncryptionKeySize.ReturnParameters
        if let id = controllers[index].handles[handle], let connection = connections[id] {
            answer = connection.encryption.state.isEncrypted
                ? .init(status: .success, connectionHandle: handle, keySize: Self.encryptionKeySize)
                : .init(status: .insufficientSecurity, connectionHandle: handle, keySize: 0)
        } else {
            answer = .init(status: .unknownConnectionIdentifier, connectionHandle: handle, keySize: 0)
        }
        complete(ReadEncryptionKeySize.self, answer, to: index)
    }

    /// The peripheral's host answered an LE Long Term Key Request with `key` (nil: the
    /// negative reply). Command Complete carries the handle; the outcome's events follow.
    private mutating func answerKeyRequest<C: HCICommand>(_ command: C.Type, _ handle: UInt16, with key: UInt128?, from index: Int)
    where C.ReturnParameters == HCIConnectionHandleReturn {
        guard let id = controllers[index].handles[handle], let slot = connections.index(forKey: id) else {
            return complete(C.self, .init(status: .unknownConnectionIdentifier, connectionHandle: handle), to: index)
        }
        let connection = connections.values[slot]
        var outcome = LinkEncryption.Outcome.disallowed
        // Only the peripheral's host is asked for a key.
        if connection.peripheral == index {
            let fault = faultArmed(on: connection)
            outcome = connections.values[slot].encryption.handle(.keyReply(key, corrupted: fault))
            if fault, outcome == .micFailure { disarmFault(on: connection) }
        }
        complete(C.self, .init(status: outcome == .disallowed ? .commandDisallowed : .success, connectionHandle: handle), to: index)
        announce(outcome, on: connections.values[slot])
    }

    /// The events an outcome makes, to the hosts that hear them.
    private mutating func announce(_ outcome: LinkEncryption.Outcome, on connection: LoopbackConnection) {
        let handle = connection.handle
        switch outcome {
        case .disallowed:
            break
        case let .requestKey(request):
            send(LELongTermKeyRequest(connectionHandle: handle, randomNumber: request.randomNumber,
                                      encryptedDiversifier: request.encryptedDiversifier), to: connection.peripheral)
        case .started:
            // Encryption_Enabled 0x01: AES-CCM, the only LE cipher (§7.7.8).
            for side in [connection.central, connection.peripheral] {
                send(EncryptionChange(connectionHandle: handle, encryptionEnabled: 0x01), to: side)
            }
        case .refreshed:
            for side in [connection.central, connection.peripheral] {
                send(EncryptionKeyRefreshComplete(connectionHandle: handle), to: side)
            }
        case .keyMissing:
            // The peripheral's host chose this; only the central learns of it.
            send(EncryptionChange(status: .pinOrKeyMissing, connectionHandle: handle, encryptionEnabled: 0x00), to: connection.central)
        case .micFailure:
            drop(connection.id, reason: .connectionTerminatedDueToMICFailure)
        }
    }

    /// Whether a test armed `failNextEncryption` on either side of `connection`.
    private func faultArmed(on connection: LoopbackConnection) -> Bool {
        controllers[connection.central].harness.failNextEncryption || controllers[connection.peripheral].harness.failNextEncryption
    }

    /// One armed fault is spent: the central's if it had one, else the peripheral's.
    private mutating func disarmFault(on connection: LoopbackConnection) {
        let side = controllers[connection.central].harness.failNextEncryption ? connection.central : connection.peripheral
        controllers[side].harness.failNextEncryption = false
    }
}
