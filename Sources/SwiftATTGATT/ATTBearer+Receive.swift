import SwiftATTCore
import SwiftATTPDU

extension ATTBearer {
    /// Handles one PDU from L2CAP channel 0x0004, classified by its opcode's kind
    /// (Core 5.4 Vol 3 Part F §3.3.1, §3.4.9), appending what to do to `actions`. A
    /// closed bearer ignores everything. The caller keeps `actions` between PDUs, so a
    /// stream of notifications costs no array per PDU.
    public mutating func receive(_ pdu: ArraySlice<UInt8>, now: MonotonicInstant, into actions: inout [Action]) {
        guard case .open = lifecycle else { return }
        guard let first = pdu.first else { return actions.append(.dropped(.malformedPDU(.empty))) }
        let opcode = ATTOpcode(first)
        switch opcode.kind {
        case .request: receiveRequest(pdu, opcode: opcode, now: now, into: &actions)
        case .command: receiveCommand(pdu, into: &actions)
        case .response: receiveResponse(pdu, opcode: opcode, now: now, into: &actions)
        case .notification: receiveNotification(pdu, opcode: opcode, into: &actions)
        case .indication: receiveIndication(pdu, into: &actions)
        case .confirmation: receiveConfirmation(pdu, opcode: opcode, now: now, into: &actions)
        }
    }

    /// The handle of the Handle Value Notification `pdu` is, when the bearer is open and
    /// it is well formed (its value is `pdu.dropFirst(3)`): what `receive` would hand
    /// up as its one `.notification` action, without building the action list or a
    /// notification, whose value slice would hold the PDU's storage. Nil for anything
    /// else (including a malformed notification), which `receive` then handles. A host
    /// receiving a stream of notifications asks this first.
    public func notificationHandle(in pdu: ArraySlice<UInt8>) -> UInt16? {
        guard case .open = lifecycle, pdu.first == ATTOpcode.handleValueNotification.rawValue else { return nil }
        return try? HandleValueNotification.handle(in: pdu)
    }

    /// The Handle Value Notification `pdu` is, decoded from borrowed bytes, when the
    /// bearer is open and it is well formed: what `receive` would hand up as its one
    /// `.notification` action (its value is the range `value` of `pdu`), without building
    /// the action list or a slice of the PDU, which would retain the packet's storage.
    /// Nil for anything else (including a malformed notification), which `receive` then
    /// handles. A host receiving a stream of notifications asks this first and copies the
    /// value out of the span.
    public func notification(in pdu: Span<UInt8>) -> HandleValueNotification.Borrowed? {
        guard case .open = lifecycle, !pdu.isEmpty, pdu[0] == ATTOpcode.handleValueNotification.rawValue else { return nil }
        return try? HandleValueNotification.Borrowed(parsing: pdu)
    }

    /// Handles one PDU and returns what to do.
    public mutating func receive(_ pdu: ArraySlice<UInt8>, now: MonotonicInstant) -> [Action] {
        var actions: [Action] = []
        receive(pdu, now: now, into: &actions)
        return actions
    }

    /// Handles one PDU held in an array.
    public mutating func receive(_ pdu: [UInt8], now: MonotonicInstant) -> [Action] {
        receive(pdu[...], now: now)
    }

    /// A request from the peer: answered here when it is Exchange MTU, unknown or
    /// malformed (§3.4.1.1), otherwise handed to the host to serve.
    private mutating func receiveRequest(
        _ bytes: ArraySlice<UInt8>, opcode: ATTOpcode, now: MonotonicInstant, into actions: inout [Action]
    ) {
        if case .serving = server { return actions.append(.dropped(.requestBeforeResponse(opcode))) }
        // §3.2.8: ATT_MTU bounds every PDU; a longer request is not one to act on.
        guard bytes.count <= mtu else { return actions.append(errorResponse(opcode, handle: 0, .invalidPDU)) }
        let pdu: ATTPDU
        do throws(ATTDecodingError) {
            pdu = try ATTPDU(parsing: bytes)
        } catch .unknownOpcode {
            return actions.append(errorResponse(opcode, handle: 0, .requestNotSupported))
        } catch .valueTooLong where opcode == .writeRequest || opcode == .prepareWriteRequest {
            // Long enough to hold its handle, or it would have failed as truncated.
            let handle = bytes.littleEndianUInt16(at: Self.writeRequestHandle)
            return actions.append(errorResponse(opcode, handle: handle, .invalidAttributeValueLength))
        } catch {
            return actions.append(errorResponse(opcode, handle: 0, .invalidPDU))
        }
        if case let .exchangeMTURequest(exchange) = pdu { return answerMTUExchange(exchange, into: &actions) }
        server = .serving(request: opcode, deadline: now + transactionTimeout)
        actions.append(.serve(pdu))
    }

    /// The peer's Exchange MTU Request: answered with `receiveMTU`, then ATT_MTU applied
    /// (§3.4.2.2: after the response is sent). A second one gets Request Not Supported.
    private mutating func answerMTUExchange(_ request: ExchangeMTURequest, into actions: inout [Action]) {
        guard !answeredMTUExchange else {
            return actions.append(errorResponse(ExchangeMTURequest.opcode, handle: 0, .requestNotSupported))
        }
        answeredMTUExchange = true
        let response = ExchangeMTUResponse(serverRxMTU: UInt16(receiveMTU))
        actions.append(.send(response.encoded()))
        actions += learnPeerReceiveMTU(request.clientRxMTU)
    }

    /// Where Write Request and Prepare Write Request both hold the attribute handle:
    /// right after the opcode (§3.4.5.1, §3.4.6.1).
    private static let writeRequestHandle = 1..<3

    private func errorResponse(_ request: ATTOpcode, handle: UInt16, _ code: ATTErrorCode) -> Action {
        .send(ErrorResponse(requestOpcode: request, handle: handle, errorCode: code).encoded())
    }

    /// A command from the peer: served without an answer; one that is unknown, does not
    /// decode or is longer than ATT_MTU is ignored (§3.3.1: the Command flag means no
    /// response, ever).
    private func receiveCommand(_ bytes: ArraySlice<UInt8>, into actions: inout [Action]) {
        guard bytes.count <= mtu else { return actions.append(.dropped(.pduTooLong(length: bytes.count, mtu: mtu))) }
        do throws(ATTDecodingError) {
            actions.append(.serve(try ATTPDU(parsing: bytes)))
        } catch {
            actions.append(.dropped(.malformedPDU(error)))
        }
    }

    /// A response from the peer: completes the outstanding request if it answers it.
    private mutating func receiveResponse(
        _ bytes: ArraySlice<UInt8>, opcode: ATTOpcode, now: MonotonicInstant, into actions: inout [Action]
    ) {
        guard case let .awaitingResponse(outstanding) = client,
              Self.answers(bytes, opcode: opcode, request: outstanding.opcode)
        else { return actions.append(.dropped(.unexpectedResponse(opcode))) }
        client = .idle
        do throws(ATTDecodingError) {
            let pdu = try ATTPDU(parsing: bytes)
            if case let .exchangeMTUResponse(exchange) = pdu {
                actions += learnPeerReceiveMTU(exchange.serverRxMTU)
            }
            actions.append(.response(outstanding.token, pdu))
        } catch {
            actions.append(.requestFailed(outstanding.token, .malformedResponse(error)))
        }
        actions += sendNextRequest(now: now)
    }

    /// Whether a response PDU answers `request` (§3.4.9): the request's own response
    /// opcode, or an Error Response whose Request Opcode In Error names it. An Error
    /// Response too short to name any request answers the one outstanding, as only one
    /// can be.
    private static func answers(_ bytes: ArraySlice<UInt8>, opcode: ATTOpcode, request: ATTOpcode) -> Bool {
        if opcode == .errorResponse {
            return bytes.count < 2 || bytes[bytes.startIndex + 1] == request.rawValue
        }
        return opcode.rawValue == request.rawValue &+ 1
    }

    /// A Handle Value Notification or Multiple Handle Value Notification (§3.4.7.1, §3.4.7.4).
    private func receiveNotification(_ bytes: ArraySlice<UInt8>, opcode: ATTOpcode, into actions: inout [Action]) {
        do throws(ATTDecodingError) {
            if opcode == .handleValueNotification {
                let notification = try HandleValueNotification(parsing: bytes)
                return actions.append(.notification(handle: notification.handle, value: notification.value))
            }
            let multiple = try MultipleHandleValueNotification(parsing: bytes)
            for tuple in multiple.handleLengthValueTupleList {
                actions.append(.notification(handle: tuple.handle ?? 0, value: tuple.value))
            }
        } catch {
            actions.append(.dropped(.malformedPDU(error)))
        }
    }

    /// A Handle Value Indication (§3.4.7.2): handed up, then confirmed (§3.4.7.3).
    private func receiveIndication(_ bytes: ArraySlice<UInt8>, into actions: inout [Action]) {
        do throws(ATTDecodingError) {
            let indication = try HandleValueIndication(parsing: bytes)
            actions.append(.indication(handle: indication.handle, value: indication.value))
        } catch {
            actions.append(.dropped(.malformedPDU(error)))
        }
        actions.append(.send(HandleValueConfirmation().encoded()))
    }

    /// A Handle Value Confirmation: completes our outstanding indication.
    private mutating func receiveConfirmation(
        _ bytes: ArraySlice<UInt8>, opcode: ATTOpcode, now: MonotonicInstant, into actions: inout [Action]
    ) {
        guard case let .awaitingConfirmation(outstanding) = indications else {
            return actions.append(.dropped(.unexpectedResponse(opcode)))
        }
        indications = .idle
        let outcome: Action
        do throws(ATTDecodingError) {
            _ = try HandleValueConfirmation(parsing: bytes)
            outcome = .indicationConfirmed(outstanding.token)
        } catch {
            outcome = .indicationFailed(outstanding.token, .malformedResponse(error))
        }
        actions.append(outcome)
        actions += sendNextIndication(now: now)
    }
}
