import SwiftATTCore
import SwiftATTPDU
import SwiftATTGATT

/// Target `gatt-server`: a stream of ATT PDUs from up to three clients, each through its
/// own `ATTBearer` into one `GATTServer` serving `FuzzDatabase`, as the host's loop runs
/// them; interleaved with what else happens to a link.
///
/// Input: per step a control octet; bits 0-1 pick the connection, bits 2-4 the event:
/// 0-3 a record with a PDU from that client; 4 the link's security and authorization
/// change (next octet); 5 the client disconnects and reconnects (connection 2 is bonded);
/// 6 the application pushes a record as a new value (a run of values when its second
/// octet's top bit is set; or, record starting FF, swaps the database: Service
/// Changed); 7 time passes the 30-second transaction timeout.
///
/// Never a trap. Every request the bearer serves gets exactly one answer from the server,
/// which the bearer accepts: the right response opcode (or an Error Response naming the
/// request) within ATT_MTU. Commands and stray responses get none. Nothing sent exceeds
/// ATT_MTU, pushed notifications fit, and no client has more Prepare Writes accepted
/// than the configured queue limit before an Execute Write.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGATTServer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    var harness = ServerHarness()
    while let control = input.byte() {
        let link = Int(control & 3) % 3
        switch control >> 2 & 7 {
        case 0...3:
            guard let pdu = input.record() else { break }
            harness.receive(pdu, on: link)
        case 4: harness.secure(link, input.byte() ?? 0)
        case 5: harness.reconnect(link)
        case 6: harness.push(input.record() ?? [])
        default: harness.elapse()
        }
    }
    return 0
}

private struct ServerHarness {
    typealias Bearer = ATTBearer
    static let prepareLimit = 8
    static let bond = BluetoothAddress(0x0000_C0FF_EE00_0002, kind: .random)

    let server = GATTServer(database: FuzzDatabase.main,
                            configuration: .init(prepareQueueLimit: prepareLimit, prepareQueueByteLimit: 1024))
    var bearers: [Bearer] = []
    var prepared = [0, 0, 0]
    var indicated: [Int: UInt16] = [:]
    var nextToken = 1
    var now = MonotonicInstant.now
    var alternate = false
    let characteristics: [GATTCharacteristic]

    init() {
        characteristics = server.database.services.flatMap(\.characteristics)
        for link in 0..<3 {
            bearers.append(Bearer(receiveMTU: 517, queueLimit: 4))
            for pdu in server.connect(GATTServer.ConnectionID(UInt16(link)), bond: link == 2 ? Self.bond : nil) {
                offer(pdu, on: link)
            }
        }
    }

    func id(_ link: Int) -> GATTServer.ConnectionID { GATTServer.ConnectionID(UInt16(link)) }

    mutating func receive(_ pdu: [UInt8], on link: Int) {
        now += .milliseconds(10)
        perform(bearers[link].receive(pdu, now: now), on: link)
    }

    mutating func secure(_ link: Int, _ octet: UInt8) {
        let keySize = 7 + Int(octet >> 4 & 0x0F) % 10
        let levels: [GATTSecurityLevel] = [.none, .encrypted(keySize: keySize), .authenticated(keySize: keySize), .authenticated(keySize: 16)]
        server.setSecurity(levels[Int(octet & 3)], for: id(link))
        server.setAuthorized(octet & 4 != 0, for: id(link))
    }

    mutating func reconnect(_ link: Int) {
        perform(bearers[link].close(reason: .remoteUserTerminated), on: link)
        server.disconnect(id(link))
        bearers[link] = Bearer(receiveMTU: 517, queueLimit: 4)
        prepared[link] = 0
        for pdu in server.connect(id(link), bond: link == 2 ? Self.bond : nil) { offer(pdu, on: link) }
    }

    mutating func push(_ value: [UInt8]) {
        if value.first == 0xFF {
            alternate.toggle()
            for (connection, pdu) in server.replaceDatabase(alternate ? FuzzDatabase.alternate : FuzzDatabase.main) {
                offer(pdu, on: Int(connection.rawValue))
            }
            return
        }
        guard !characteristics.isEmpty else { return }
        let characteristic = characteristics[Int(value.first ?? 0) % characteristics.count]
        // A record whose second octet has its top bit set is a run of values handed over
        // together (the host's loop does that when `updateValue` comes faster than it
        // turns): cut into pieces at each 0xFE octet.
        if value.count > 1, value[1] & 0x80 != 0 {
            let run = value.split(separator: 0xFE, omittingEmptySubsequences: false).map { Array($0) }
            var pushed = 0
            server.update(characteristic, values: run) { connection, pdu in
                pushed += 1
                offer(pdu, on: Int(connection.rawValue))
            }
            require(pushed % run.count == 0, "\(pushed) PDUs for a run of \(run.count) values")
            return
        }
        for (connection, pdu) in server.update(characteristic, value: value) {
            offer(pdu, on: Int(connection.rawValue))
        }
    }

    mutating func elapse() {
        now += .seconds(31)
        for link in 0..<3 { perform(bearers[link].expire(now: now), on: link) }
    }

    /// A notification or indication the server owes a client.
    mutating func offer(_ pdu: ATTPDU, on link: Int) {
        guard link < bearers.count, !bearers[link].isClosed else { return }
        do {
            switch pdu {
            case let .handleValueNotification(notification):
                require(notification.encodedLength <= bearers[link].mtu, "notification longer than ATT_MTU")
                perform(try bearers[link].send(pdu), on: link)
            case let .handleValueIndication(indication):
                let token = nextToken
                nextToken += 1
                indicated[token] = indication.handle
                perform(try bearers[link].indicate(indication, token: token, now: now), on: link)
            default:
                require(false, "the server pushed \(pdu.opcode)")
            }
        } catch .queueFull {
            // Indications beyond the queue are the application's to retry.
        } catch {
            require(false, "the bearer refused a pushed \(pdu.opcode): \(error)")
        }
    }

    mutating func perform(_ actions: [Bearer.Action], on link: Int) {
        for action in actions {
            switch action {
            case let .send(bytes):
                require(bytes.count <= max(bearers[link].mtu, 23), "sent \(bytes.count) octets at ATT_MTU \(bearers[link].mtu)")
            case let .serve(request):
                serve(request, on: link)
            case let .mtuChanged(mtu):
                server.setMTU(mtu, for: id(link))
            case let .indicationConfirmed(token):
                if let handle = indicated.removeValue(forKey: token) {
                    server.indicationConfirmed(valueHandle: handle, by: id(link))
                }
            case let .indicationFailed(token, _):
                indicated[token] = nil
            case .closed:
                reconnect(link)
                return
            case .response, .requestFailed, .notification, .indication, .dropped:
                break
            }
        }
    }

    mutating func serve(_ request: ATTPDU, on link: Int) {
        let response = server.handle(request, from: id(link), mtu: bearers[link].mtu)
        guard request.opcode.kind == .request else {
            require(response == nil, "the server answered a \(request.opcode)")
            return
        }
        guard let response else {
            require(false, "no answer to \(request.opcode)")
            return
        }
        countPrepared(request, response, on: link)
        do {
            perform(try bearers[link].respond(response), on: link)
        } catch {
            require(false, "the bearer refused the answer \(response.opcode) to \(request.opcode): \(error)")
        }
    }

    mutating func countPrepared(_ request: ATTPDU, _ response: ATTPDU, on link: Int) {
        switch response {
        case .prepareWriteResponse:
            prepared[link] += 1
            require(prepared[link] <= Self.prepareLimit, "\(prepared[link]) prepared writes accepted")
        case .executeWriteResponse:
            prepared[link] = 0
        case .errorResponse where request.opcode == .executeWriteRequest:
            prepared[link] = 0
        default:
            break
        }
    }
}
