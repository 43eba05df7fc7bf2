import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import Synchronization
import Testing

/// A client bearer and a server bearer back to back, with the in-repo `GATTServer`
/// behind the second: every `.send` of one is delivered to the other's `receive`, every
/// `.serve` is answered by `GATTServer.handle` and `respond`. Drives a `GATTProcedure`
/// to completion as a host would, and records what the client sent and received.
///
/// `tamper` sees each answer the server sends to a request (and the request) and
/// returns the bytes to deliver instead, or `nil` to deliver nothing (the request then
/// times out). Everything is synchronous; the clock moves only when a request is left
/// unanswered.
struct GATTClientTestLink {
    typealias Bearer = ATTBearer
    typealias Action = Bearer.Action

    var client: Bearer
    var serverBearer: Bearer
    let server: GATTServer
    let connection: GATTServer.ConnectionID = 1
    var now = MonotonicInstant.now

    /// The requests the client sent, in order.
    var requests: [ATTPDU] = []
    var notifications: [GATTClient.HandleValue] = []
    var indications: [GATTClient.HandleValue] = []
    var tamper: ((_ request: ATTPDU, _ answer: [UInt8]) -> [UInt8]?)?
    /// PDUs the server's side sends the client right after the client sends the request
    /// with that (1-based) number, before its answer: a peer's own Exchange MTU Request,
    /// say. The client's replies to them are dropped.
    var interject: [Int: [[UInt8]]] = [:]

    private var nextToken = 1
    /// The server's indications awaiting confirmation: token → value handle.
    private var indicated: [Int: UInt16] = [:]

    /// A link at ATT_MTU 23, or after the client's Exchange MTU when `mtu` is given
    /// (the client offers `mtu`, the server 517).
    init(_ database: GATTDatabase, mtu: Int? = nil, configuration: GATTServer.Configuration = .init(),
         security: GATTSecurityLevel = .none) {
        client = Bearer(receiveMTU: mtu ?? 517)
        serverBearer = Bearer(receiveMTU: 517)
        server = GATTServer(database: database, configuration: configuration)
        server.connect(connection, security: security)
        if mtu != nil, let actions = try? client.exchangeMTU(token: 0, now: now) {
            _ = deliver(actions)
        }
    }

    var mtu: Int { client.mtu }

    /// How many requests of `opcode` the client sent.
    func count(_ opcode: ATTOpcode) -> Int { requests.filter { $0.opcode == opcode }.count }

    // MARK: Driving procedures

    /// Runs a procedure to its end. `cancelAt`: call `cancel()` after sending that
    /// (1-based) request, before its answer arrives. `disconnectAt`: the link goes down
    /// after sending that request.
    mutating func run<P: GATTProcedure>(
        _ procedure: inout P, cancelAt: Int? = nil, disconnectAt: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Result<P.Output, GATTClientError> {
        var step = procedure.start()
        var sent = 0
        while true {
            switch step {
            case let .done(output): return .success(output)
            case let .failed(error): return .failure(error)
            case let .request(pdu):
                sent += 1
                guard sent <= 70_000 else {
                    Issue.record("the procedure did not finish", sourceLocation: sourceLocation)
                    return .failure(.cancelled)
                }
                let token = nextToken
                nextToken += 1
                let actions: [Action]
                do {
                    actions = try client.request(pdu, token: token, now: now)
                } catch {
                    // As the host does: the procedure hears of it and may wind down.
                    step = procedure.refused(GATTClientError(error))
                    continue
                }
                requests.append(pdu)
                for bytes in interject[requests.count] ?? [] { _ = client.receive(bytes, now: now) }
                if sent == disconnectAt {
                    guard case let .failure(error)? = outcome(of: token, in: client.close(reason: .remoteUserTerminated)) else {
                        Issue.record("the disconnect did not fail request \(sent)", sourceLocation: sourceLocation)
                        return .failure(.cancelled)
                    }
                    return .failure(error)
                }
                if sent == cancelAt, let early = procedure.cancel() {
                    return finish(early)
                }
                var settled = deliver(actions)
                if settled.isEmpty {
                    // Unanswered: let the transaction timeout pass.
                    now += .seconds(31)
                    settled = client.expire(now: now)
                }
                switch outcome(of: token, in: settled) {
                case let .success(answer)?: step = procedure.receive(answer)
                case let .failure(error)?: return .failure(error)
                case nil:
                    Issue.record("request \(sent) got no outcome", sourceLocation: sourceLocation)
                    return .failure(.cancelled)
                }
            }
        }
    }

    /// `run(_:)` for a procedure the test does not look at afterwards.
    mutating func run<P: GATTProcedure>(_ procedure: P, sourceLocation: SourceLocation = #_sourceLocation) -> Result<P.Output, GATTClientError> {
        var procedure = procedure
        return run(&procedure, sourceLocation: sourceLocation)
    }

    private func finish<Output>(_ step: GATTProcedureStep<Output>) -> Result<Output, GATTClientError> {
        switch step {
        case let .done(output): return .success(output)
        case let .failed(error): return .failure(error)
        case .request: return .failure(.notSupported("cancel() asked for a request"))
        }
    }

    /// What happened to the request `token` among `actions`: its answer, or its failure
    /// as the host reports it.
    private func outcome(of token: Int, in actions: [Action]) -> Result<ATTPDU, GATTClientError>? {
        for action in actions {
            switch action {
            case let .response(t, pdu) where t == token: return .success(pdu)
            case let .requestFailed(t, error) where t == token: return .failure(GATTClientError(error))
            default: continue
            }
        }
        return nil
    }

    // MARK: Commands and pushes

    /// Sends a command (Write Without Response) from the client.
    mutating func send(_ pdu: ATTPDU) throws {
        _ = deliver(try client.send(pdu))
    }

    /// Delivers what the server pushes (`GATTServer.update`, Service Changed) to the client.
    mutating func push(_ pdus: [(GATTServer.ConnectionID, ATTPDU)]) throws {
        for (_, pdu) in pdus {
            switch pdu {
            case let .handleValueIndication(indication):
                let token = nextToken
                nextToken += 1
                indicated[token] = indication.handle
                _ = deliver(fromServer: try serverBearer.indicate(indication, token: token, now: now))
            default:
                _ = deliver(fromServer: try serverBearer.send(pdu))
            }
        }
    }

    // MARK: The wire

    /// Delivers the client's actions and everything they cause, until both sides are
    /// quiet. Returns the client's actions that settle requests.
    private mutating func deliver(_ clientActions: [Action]) -> [Action] {
        deliver(clientActions: clientActions, serverActions: [])
    }

    private mutating func deliver(fromServer serverActions: [Action]) -> [Action] {
        deliver(clientActions: [], serverActions: serverActions)
    }

    private mutating func deliver(clientActions: [Action], serverActions: [Action]) -> [Action] {
        var toServer: [[UInt8]] = []
        var toClient: [[UInt8]] = []
        var settled: [Action] = []
        var lastRequest: ATTPDU?

        func takeClient(_ actions: [Action]) {
            for action in actions {
                switch action {
                case let .send(bytes): toServer.append(bytes)
                case let .notification(handle, value): notifications.append(.init(handle: handle, value: Array(value)))
                case let .indication(handle, value): indications.append(.init(handle: handle, value: Array(value)))
                case .response, .requestFailed: settled.append(action)
                default: break
                }
            }
        }
        func takeServer(_ actions: [Action]) {
            for action in actions {
                switch action {
                case let .send(bytes):
                    guard let request = lastRequest, let tamper else {
                        toClient.append(bytes)
                        continue
                    }
                    lastRequest = nil
                    if let replaced = tamper(request, bytes) { toClient.append(replaced) }
                case let .serve(pdu):
                    let answer = server.handle(pdu, from: connection, mtu: serverBearer.mtu)
                    guard let answer, let sent = try? serverBearer.respond(answer) else { continue }
                    lastRequest = pdu
                    takeServer(sent)
                case let .mtuChanged(mtu):
                    server.setMTU(mtu, for: connection)
                case let .indicationConfirmed(token):
                    if let handle = indicated.removeValue(forKey: token) {
                        server.indicationConfirmed(valueHandle: handle, by: connection)
                    }
                default:
                    break
                }
            }
        }

        takeClient(clientActions)
        takeServer(serverActions)
        while !toServer.isEmpty || !toClient.isEmpty {
            if !toServer.isEmpty {
                let actions = serverBearer.receive(toServer.removeFirst(), now: now)
                takeServer(actions)
            }
            if !toClient.isEmpty {
                let actions = client.receive(toClient.removeFirst(), now: now)
                takeClient(actions)
            }
        }
        return settled
    }
}

/// Records what write handlers saw.
final class GATTClientRecorder: Sendable {
    private let writes = Mutex<[GATTWriteContext]>([])

    func record(_ context: GATTWriteContext) { writes.withLock { $0.append(context) } }
    var recorded: [GATTWriteContext] { writes.withLock { $0 } }
    var lastValue: [UInt8]? { writes.withLock { $0.last?.value } }
}

/// The database the client tests discover, read and write:
///
///     0x0001 GAP 1800: Device Name "swift-att", Appearance
///     0x0006 GATT 1801: Service Changed (+CCCD 0x0009), Client Supported Features, Database Hash
///     Heart Rate 180D: Measurement (notify), Body Sensor Location 01 (read), Control Point (write: 01 only)
///     Battery 180F: Battery Level 64 (read, notify)
///     Custom 128-bit primary, including Battery (a 16-bit include) and Secondary (a 128-bit include):
///         long       read|write   300 octets 00 01 02 …, up to 512, writes recorded
///         reliable   read|write, Reliable Write + Writable Auxiliaries, "rw", User Description "Name"
///         exact22    read         22 fixed octets (Attribute Not Long on a Read Blob at MTU 23)
///         pair       read         fixed 11 22
///         quad       read         fixed 01 02 03 04
///         protected  read         needs authentication
///         writeOnly  write        not readable
///         both       notify|indicate
///     Secondary 128-bit (secondary): one 128-bit characteristic "secondary"
///
/// Handles come from the database; tests look them up, or compare with `expected(_:)`.
struct GATTClientFixture {
    static let customServiceUUID = BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!
    static let secondaryServiceUUID = BluetoothUUID("6E400100-B5A3-F393-E0A9-E50E24DCCA9E")!
    static func customUUID(_ n: UInt8) -> BluetoothUUID {
        BluetoothUUID(uuid128: BluetoothUUID("6E400002-B5A3-F393-E0A9-E50E24DCCA9E")!.uuid128 + (UInt128(n) << 96))
    }

    static let longValue: [UInt8] = (0..<300).map { UInt8(truncatingIfNeeded: $0) }
    static let exact22Value: [UInt8] = (0..<22).map { UInt8(0xA0 + $0) }

    let database: GATTDatabase
    let recorder: GATTClientRecorder
    let heartRate, battery, custom, secondary: GATTService
    let measurement, location, controlPoint, batteryLevel: GATTCharacteristic
    let long, reliable, exact22, pair, quad, protected, writeOnly, both, secondaryValue: GATTCharacteristic
    let userDescription: GATTDescriptor

    init(extraHeartRateCharacteristic: Bool = false, genericAttribute: Bool = true) throws {
        let recorder = GATTClientRecorder()
        self.recorder = recorder
        let record: GATTWriteHandler = { context in
            recorder.record(context)
            return nil
        }
        measurement = GATTCharacteristic(uuid: BluetoothUUID(0x2A37), properties: [.notify], value: .dynamic())
        location = GATTCharacteristic(uuid: BluetoothUUID(0x2A38), properties: [.read], value: .bytes([0x01]))
        controlPoint = GATTCharacteristic(
            uuid: BluetoothUUID(0x2A39), properties: [.write],
            value: .dynamic(write: { context in
                recorder.record(context)
                return context.value == [0x01] ? nil : ATTErrorCode(0x80)
            }))
        var heartRateCharacteristics = [measurement, location, controlPoint]
        if extraHeartRateCharacteristic {
            heartRateCharacteristics.append(GATTCharacteristic(uuid: BluetoothUUID(0x2A3F), properties: [.read], value: .bytes([0x07])))
        }
        heartRate = GATTService(uuid: BluetoothUUID(0x180D), characteristics: heartRateCharacteristics)
        batteryLevel = GATTCharacteristic(uuid: BluetoothUUID(0x2A19), properties: [.read, .notify], value: .bytes([0x64]))
        battery = GATTService(uuid: BluetoothUUID(0x180F), characteristics: [batteryLevel])

        secondaryValue = GATTCharacteristic(uuid: Self.customUUID(0x20), properties: [.read], value: .text("secondary"))
        secondary = GATTService(uuid: Self.secondaryServiceUUID, isPrimary: false, characteristics: [secondaryValue])

        long = GATTCharacteristic(uuid: Self.customUUID(1), properties: [.read, .write], value: .bytes(Self.longValue, onWrite: record))
        userDescription = .userDescription("Name")
        reliable = GATTCharacteristic(
            uuid: Self.customUUID(2), properties: [.read, .write], extendedProperties: [.reliableWrite, .writableAuxiliaries],
            value: .text("rw", onWrite: record), descriptors: [userDescription])
        exact22 = GATTCharacteristic(uuid: Self.customUUID(3), properties: [.read], value: .fixed(Self.exact22Value))
        pair = GATTCharacteristic(uuid: Self.customUUID(4), properties: [.read], value: .fixed([0x11, 0x22]))
        quad = GATTCharacteristic(uuid: Self.customUUID(5), properties: [.read], value: .fixed([0x01, 0x02, 0x03, 0x04]))
        protected = GATTCharacteristic(
            uuid: Self.customUUID(6), properties: [.read], permissions: AttributePermissions(read: .authenticated),
            value: .bytes([0x42]))
        writeOnly = GATTCharacteristic(uuid: Self.customUUID(7), properties: [.write], value: .bytes([], onWrite: record))
        both = GATTCharacteristic(uuid: Self.customUUID(8), properties: [.notify, .indicate], value: .bytes([0x99]))
        custom = GATTService(
            uuid: Self.customServiceUUID, includedServices: [battery, secondary],
            characteristics: [long, reliable, exact22, pair, quad, protected, writeOnly, both])

        database = try GATTDatabase(
            services: [heartRate, battery, custom, secondary],
            includesGenericAttributeService: genericAttribute)
    }

    func valueHandle(_ characteristic: GATTCharacteristic) -> UInt16 {
        database.valueHandle(of: characteristic) ?? 0
    }

    /// What discovery must find, read from the server's own attribute table: every
    /// declaration decoded from the server's side, independently of the client.
    static func expected(_ database: GATTDatabase) -> GATTClientDatabase {
        var records: [GATTClientDatabase.ServiceRecord] = []
        func uuid(_ bytes: ArraySlice<UInt8>) -> BluetoothUUID { BluetoothUUID(littleEndianBytes: bytes)! }
        for attribute in database.attributes {
            let value = (attribute.constantValue ?? [])[...]
            switch attribute.role {
            case .primaryService, .secondaryService:
                records.append(.init(service: .init(
                    uuid: uuid(value), handles: attribute.handle...attribute.groupEnd, isPrimary: attribute.role == .primaryService)))
            case .include:
                let start = value.littleEndianUInt16(at: 0)
                let included = database.attribute(at: start)!.constantValue![...]
                records[records.count - 1].includedServices.append(.init(
                    declarationHandle: attribute.handle, handles: start...value.littleEndianUInt16(at: 2), uuid: uuid(included)))
            case .characteristicDeclaration:
                records[records.count - 1].characteristics.append(.init(characteristic: .init(
                    uuid: uuid(value.bytes(from: 3)), declarationHandle: attribute.handle,
                    valueHandle: value.littleEndianUInt16(at: 1), endHandle: attribute.groupEnd,
                    properties: .init(rawValue: value.byte(at: 0)))))
            case .descriptor:
                let last = records.count - 1
                records[last].characteristics[records[last].characteristics.count - 1].descriptors.append(
                    .init(handle: attribute.handle, uuid: attribute.type))
            case .characteristicValue:
                break
            }
        }
        return GATTClientDatabase(services: records)
    }
}

extension Result where Failure == GATTClientError {
    /// The procedure's output, for `#expect(… == …)`; `nil` on failure.
    var gattOutput: Success? { try? get() }
    /// The procedure's error, for `#expect(… == …)`; `nil` on success.
    var gattError: GATTClientError? {
        if case let .failure(error) = self { return error }
        return nil
    }
}

extension GATTProcedureStep {
    /// The request asked for, if this is a request step.
    var request: ATTPDU? {
        if case let .request(pdu) = self { return pdu }
        return nil
    }
    /// The error, if this is a failure.
    var failure: GATTClientError? {
        if case let .failed(error) = self { return error }
        return nil
    }
    var isDone: Bool {
        if case .done = self { return true }
        return false
    }
}
