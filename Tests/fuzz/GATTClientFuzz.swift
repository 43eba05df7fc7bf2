import SwiftATTCore
import SwiftATTPDU
import SwiftATTGATT

/// Target `gatt-client`: every GATT client procedure (GATTClient+*.swift) run over an
/// `ATTBearer` against the in-repo server holding `FuzzDatabase`, with the fuzzer
/// choosing, answer by answer, what the client receives instead.
///
/// Input: a procedure (first octet, 16 kinds), its parameters (handle, ATT_MTU, value
/// length, offset), then one mode octet per request: 0 the server's true answer; 1 a
/// record from the input instead; 2 the true answer with one octet changed; 3 a record
/// first (a stray or wrong PDU), then the true answer; 4 no answer until the 30-second
/// timeout; 5 the caller cancels, then the true answer; 6 the true answer cut short.
/// When the input runs out every answer is true, so procedures also finish the normal
/// way.
///
/// Never a trap, and never a hang: each request the procedure asks for fits the ATT_MTU
/// it was made for and the bearer takes it unless the peer has since shrunk ATT_MTU
/// (a second Exchange MTU in the other direction), each procedure finishes within its
/// bound on round trips, and after finishing asks for nothing more.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGATTClient(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let kind = input.byte() ?? 0
    let handle = UInt16(input.byte() ?? 3)
    let setting = input.byte() ?? 0
    let mtu = [23, 24, 31, 64, 185, 247, 517, 23][Int(setting & 7)]
    let length = Int(input.byte() ?? 0) * 3
    let value = (0..<length).map { UInt8(truncatingIfNeeded: $0) }
    let offset = UInt16(setting >> 3) * 7
    var link = ClientLink(mtu: mtu)
    let end = Swift.min(handle &+ 6, 0xFFFF)
    let range = Swift.min(handle, end)...end
    switch kind & 0x0F {
    case 0: link.run(GATTClient.DiscoverPrimaryServices(mtu: link.mtu), &input)
    case 1: link.run(GATTClient.DiscoverPrimaryServices(uuid: BluetoothUUID(0xFFE0), mtu: link.mtu), &input)
    case 2: link.run(GATTClient.DiscoverDatabase(mtu: link.mtu), &input)
    case 3: link.run(GATTClient.DiscoverCharacteristics(range: range, uuid: handle & 1 == 0 ? nil : BluetoothUUID(0xFFE1), mtu: link.mtu), &input)
    case 4: link.run(GATTClient.DiscoverAllCharacteristicDescriptors(range: range, mtu: link.mtu), &input)
    case 5: link.run(GATTClient.FindIncludedServices(range: 1...0xFFFF, mtu: link.mtu), &input)
    case 6: link.run(GATTClient.ReadCharacteristicValue(handle: handle, mtu: link.mtu), &input)
    case 7: link.run(GATTClient.ReadLongCharacteristicValues(handle: handle, offset: offset, mtu: link.mtu), &input)
    case 8:
        let values = (0..<(length % 40)).map { (handle: handle &+ UInt16($0), length: $0 % 5) }
        link.run(GATTClient.ReadMultipleCharacteristicValues(values, mtu: link.mtu), &input)
    case 9:
        let handles = (0..<(length % 40)).map { handle &+ UInt16($0) }
        link.run(GATTClient.ReadMultipleVariableLengthCharacteristicValues(handles: handles, mtu: link.mtu), &input)
    case 10: link.run(GATTClient.ReadUsingCharacteristicUUID(uuid: BluetoothUUID(0xFFE0 + handle % 8), mtu: link.mtu), &input)
    case 11: link.run(GATTClient.WriteCharacteristicValue(handle: handle, value: value, mtu: link.mtu), &input)
    case 12: link.run(GATTClient.WriteLongCharacteristicValues(handle: handle, value: value, offset: offset, mtu: link.mtu), &input)
    case 13:
        let writes = [GATTClient.ReliableWrites.Write(handle: handle, value: value, offset: offset),
                      GATTClient.ReliableWrites.Write(handle: 0x0003, value: Array(value.prefix(5)))]
        link.run(GATTClient.ReliableWrites(writes, mtu: link.mtu), &input)
    case 14:
        let configuration = GATTClientConfiguration(rawValue: UInt16(setting >> 6))
        let properties = GATTCharacteristic.Properties(rawValue: UInt8(truncatingIfNeeded: length))
        link.run(GATTClient.WriteClientCharacteristicConfiguration(
            handle: handle, configuration: configuration, properties: setting & 8 == 0 ? nil : properties, mtu: link.mtu), &input)
    default:
        let cached = setting & 8 == 0 ? nil : Array(FuzzDatabase.main.databaseHashValue.prefix(length % 17))
        link.run(GATTClient.CheckDatabaseHash(cached: cached, mtu: link.mtu), &input)
    }
    return 0
}

/// A client bearer facing a server bearer with `GATTServer` behind it, after an
/// Exchange MTU, driven one procedure step at a time with the fuzzer's answers.
private struct ClientLink {
    typealias Bearer = ATTBearer
    var client: Bearer
    var serverBearer = Bearer(receiveMTU: 517)
    let server = GATTServer(database: FuzzDatabase.main)
    var now = MonotonicInstant.now
    var token = 0

    init(mtu: Int) {
        client = Bearer(receiveMTU: mtu)
        if let actions = try? client.exchangeMTU(token: 0, now: now), case let .send(request)? = actions.first {
            for answer in serverAnswers(to: request) { _ = client.receive(answer, now: now) }
        }
    }

    var mtu: Int { client.mtu }

    /// What the server side sends back for one PDU from the client.
    mutating func serverAnswers(to pdu: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        for action in serverBearer.receive(pdu, now: now) {
            switch action {
            case let .send(bytes): out.append(bytes)
            case let .serve(request):
                guard let response = server.handle(request, from: 1, mtu: serverBearer.mtu),
                      let actions = try? serverBearer.respond(response) else { continue }
                for case let .send(bytes) in actions { out.append(bytes) }
            case let .mtuChanged(mtu): server.setMTU(mtu, for: 1)
            default: break
            }
        }
        return out
    }

    mutating func run<P: GATTProcedure>(_ made: P, _ input: inout FuzzInput) {
        var procedure = made
        var step = procedure.start()
        var requests = 0
        while case let .request(pdu) = step {
            requests += 1
            require(requests <= 70_000, "the procedure did not finish")
            require(pdu.encodedLength <= procedure.mtu,
                    "a \(pdu.opcode) of \(pdu.encodedLength) octets from a procedure made for ATT_MTU \(procedure.mtu)")
            token += 1
            let sent: [Bearer.Action]
            do {
                sent = try client.request(pdu, token: token, now: now)
            } catch {
                // Only a peer that exchanged MTU again, announcing less, makes the
                // bearer refuse: the procedure then ends, cancelling prepared writes.
                require(error == .pduTooLong(length: pdu.encodedLength, mtu: mtu) && mtu < procedure.mtu,
                        "the bearer refused the procedure's \(pdu.opcode): \(error)")
                step = procedure.refused(GATTClientError(error))
                continue
            }
            guard case let .send(bytes)? = sent.first else {
                require(false, "the bearer did not send the procedure's request at once")
                return
            }
            guard let next = exchange(bytes, &procedure, &input) else { return }
            step = next
        }
        if case let .failed(error) = step { blackHole(error.description) }
        blackHole(procedure.cancel() == nil)
    }

    /// Delivers answers to one request until the bearer hands the procedure a response
    /// (its next step) or fails the request (`nil`: the host ends the procedure there).
    mutating func exchange<P: GATTProcedure>(_ request: [UInt8], _ procedure: inout P, _ input: inout FuzzInput) -> P.Step? {
        let truth = serverAnswers(to: request)
        var answers: [[UInt8]]
        switch input.byte() ?? 0 {
        case 1: answers = [input.record() ?? []]
        case 2:
            var changed = truth.first ?? [0x01]
            let at = Int(input.byte() ?? 0) % Swift.max(changed.count, 1)
            changed[at] ^= input.byte() ?? 0xFF
            answers = [changed]
        case 3: answers = [input.record() ?? []] + truth
        case 4: answers = []
        case 5:
            if let stop = procedure.cancel() { return stop.isFinished ? nil : stop }
            answers = truth
        case 6: answers = truth.map { Array($0.prefix(Int(input.byte() ?? 0))) }
        default: answers = truth
        }
        for answer in answers {
            if let step = deliver(answer, &procedure) { return step }
            if client.nextDeadline == nil { return nil }
        }
        // Nothing answered it: the transaction times out and the bearer fails it.
        now += .seconds(31)
        for action in client.expire(now: now) {
            if case .requestFailed = action { return nil }
        }
        require(false, "an unanswered request did not time out")
        return nil
    }

    mutating func deliver<P: GATTProcedure>(_ answer: [UInt8], _ procedure: inout P) -> P.Step? {
        // The host's shortcuts for notifications must agree with `receive` on each PDU.
        let shortcut = client.notificationHandle(in: answer[...])
        let borrowed = client.notification(in: answer.span)
        let actions = client.receive(answer, now: now)
        require(borrowed?.handle == shortcut, "notification(in:) and notificationHandle(in:) disagree on \(answer)")
        if let shortcut {
            require(actions == [.notification(handle: shortcut, value: answer[3...])],
                    "notificationHandle(in:) and receive disagree on \(answer)")
            require(borrowed?.value == 3..<answer.count, "notification(in:) and receive disagree on \(answer)")
        }
        for action in actions {
            switch action {
            case let .response(t, pdu):
                require(t == token, "a response for token \(t), \(token) outstanding")
                return procedure.receive(pdu)
            case .requestFailed:
                return .failed(.cancelled)
            default:
                break
            }
        }
        return nil
    }
}

extension GATTProcedureStep {
    var isFinished: Bool {
        if case .request = self { return false }
        return true
    }
}
