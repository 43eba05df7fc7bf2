import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import Synchronization
import Testing

/// One request and the exact response the server must give (`nil`: none), as hex.
struct Exchange: Sendable, CustomTestStringConvertible {
    let name: String
    let request: String
    let response: String?
    var mtu: Int = 23

    var testDescription: String { name }
}

/// Normalised hex (lowercase, no separators) so vectors can be written with spaces.
func hex(_ text: String) throws -> String {
    Hex.encode(try Hex.decode(text))
}

func bytes(_ text: String) throws -> [UInt8] {
    try Hex.decode(text)
}

/// A handle as four hex digits, as the vectors' comments write them.
func handleText(_ handle: UInt16) -> String {
    Hex.encode([UInt8(handle >> 8), UInt8(handle & 0xFF)])
}

extension GATTServer {
    /// Feeds one request given as hex and returns the response as hex.
    func respond(_ request: String, from connection: ConnectionID = 1, bearer: Bearer = .unenhanced, mtu: Int = 23) throws -> String? {
        let pdu = try ATTPDU(parsing: Hex.decode(request))
        return handle(pdu, from: connection, bearer: bearer, mtu: mtu).map { Hex.encode($0.encoded()) }
    }

    /// Runs exchanges in order against this server, checking each response.
    func expect(_ exchanges: [Exchange], from connection: ConnectionID = 1, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for e in exchanges {
            let got = try respond(e.request, from: connection, mtu: e.mtu)
            let want = try e.response.map(hex)
            #expect(got == want, "\(e.name)", sourceLocation: sourceLocation)
        }
    }
}

extension Array where Element == (GATTServer.ConnectionID, ATTPDU) {
    /// Each pushed PDU as "connection: hex".
    var described: [String] { map { "\($0.0.rawValue): \(Hex.encode($0.1.encoded()))" } }
}

/// Records what write handlers and subscription callbacks saw.
final class Recorder: Sendable {
    private let writes = Mutex<[GATTWriteContext]>([])
    private let changes = Mutex<[String]>([])

    func record(_ context: GATTWriteContext) { writes.withLock { $0.append(context) } }
    var recordedWrites: [GATTWriteContext] { writes.withLock { $0 } }
    var lastValue: [UInt8] { writes.withLock { $0.last?.value ?? [] } }

    func record(_ change: GATTSubscriptionChange) {
        changes.withLock {
            $0.append("\(change.connection.rawValue) \(handleText(change.valueHandle)) \(change.configuration.rawValue) \(change.cause)")
        }
    }
    /// Every subscription change `server` has made so far, as "connection value-handle
    /// configuration cause": those it still holds are taken and kept here.
    func changes(of server: GATTServer) -> [String] {
        for change in server.takeSubscriptionChanges() { record(change) }
        return changes.withLock { $0 }
    }
}

/// Databases the tests share. Handles are listed next to each so vectors can be read
/// against them.
enum Fixtures {
    /// The GAP and GATT services (0x0001–0x000D) and a Heart Rate service (0x000E–0x0015),
    /// laid out exactly as Bumble lays out its default database plus the same service:
    ///
    ///     0001 Primary Service 1800          000B Client Supported Features
    ///     0002 Characteristic → 0003 2A00    000C Characteristic → 000D 2B2A
    ///     0003 Device Name "swift-att"       000D Database Hash
    ///     0004 Characteristic → 0005 2A01    000E Primary Service 180D
    ///     0005 Appearance 0000               000F Characteristic (notify) → 0010 2A37
    ///     0006 Primary Service 1801          0010 Heart Rate Measurement
    ///     0007 Characteristic (ind) → 0008   0011 CCCD
    ///     0008 Service Changed               0012 Characteristic (read) → 0013 2A38
    ///     0009 CCCD                          0013 Body Sensor Location 01
    ///     000A Characteristic → 000B 2B29    0014 Characteristic (write) → 0015 2A39
    ///                                        0015 Heart Rate Control Point
    struct HeartRate {
        let database: GATTDatabase
        let service: GATTService
        let measurement: GATTCharacteristic
        let bodySensorLocation: GATTCharacteristic
        let controlPoint: GATTCharacteristic
    }

    static func heartRate(recorder: Recorder = Recorder()) throws -> HeartRate {
        let measurement = GATTCharacteristic(uuid: BluetoothUUID(0x2A37), properties: [.notify], value: .dynamic())
        let location = GATTCharacteristic(uuid: BluetoothUUID(0x2A38), properties: [.read], value: .bytes([0x01]))
        let controlPoint = GATTCharacteristic(
            uuid: BluetoothUUID(0x2A39), properties: [.write],
            value: .dynamic(write: { context in
                recorder.record(context)
                return context.value == [0x01] ? nil : ATTErrorCode(0x80)
            }))
        let service = GATTService(uuid: BluetoothUUID(0x180D), characteristics: [measurement, location, controlPoint])
        let database = try GATTDatabase(services: [service])
        return HeartRate(database: database, service: service, measurement: measurement,
                         bodySensorLocation: location, controlPoint: controlPoint)
    }

    /// The 300-octet value of 0xFFE1: 00 01 02 … FF 00 01 … 2B.
    static let longValue: [UInt8] = (0..<300).map { UInt8(truncatingIfNeeded: $0) }

    /// Values of every kind, no GAP or GATT service:
    ///
    ///     0001 Primary Service FFE0
    ///     0002/0003 FFE1 read|write        300 octets (longValue), up to 512
    ///     0004/0005 FFE2 read              fixed 11 22
    ///     0006/0007 FFE3 read|wwr|write    "abc", up to 20
    ///     0008/0009 FFE4 read|write        dynamic: reads fail 0x80, writes fail 0x81
    ///     000A/000B FFE5 read|write|notify fixed 01 02 03 04; 000C CCCD
    ///     000D/000E FFE6 read|indicate     55; 000F CCCD
    ///     0010/0011 FFE7 read|write|ext    "rw"; 0012 Extended Properties 0003; 0013 User Description "Name"
    ///     0014/0015 FFE8 read|write        dynamic, records writes, reads the last one
    ///     0016/0017 FFE9 notify|indicate   99 (not readable); 0018 CCCD
    struct Values {
        let database: GATTDatabase
        let long, fixed, short, failing, notifying, indicating, reliable, dynamic, both: GATTCharacteristic
    }

    static func values(recorder: Recorder = Recorder()) throws -> Values {
        let long = GATTCharacteristic(uuid: BluetoothUUID(0xFFE1), properties: [.read, .write], value: .bytes(longValue))
        let fixed = GATTCharacteristic(uuid: BluetoothUUID(0xFFE2), properties: [.read], value: .fixed([0x11, 0x22]))
        let short = GATTCharacteristic(
            uuid: BluetoothUUID(0xFFE3), properties: [.read, .writeWithoutResponse, .write],
            value: .text("abc", length: .variable(maximum: 20)))
        let failing = GATTCharacteristic(
            uuid: BluetoothUUID(0xFFE4), properties: [.read, .write],
            value: .dynamic(read: { _ in .failure(ATTErrorCode(0x80)) }, write: { _ in ATTErrorCode(0x81) }))
        let notifying = GATTCharacteristic(uuid: BluetoothUUID(0xFFE5), properties: [.read, .write, .notify], value: .fixed([1, 2, 3, 4]))
        let indicating = GATTCharacteristic(uuid: BluetoothUUID(0xFFE6), properties: [.read, .indicate], value: .bytes([0x55]))
        let reliable = GATTCharacteristic(
            uuid: BluetoothUUID(0xFFE7), properties: [.read, .write],
            extendedProperties: [.reliableWrite, .writableAuxiliaries],
            value: .text("rw"), descriptors: [.userDescription("Name")])
        let dynamic = GATTCharacteristic(
            uuid: BluetoothUUID(0xFFE8), properties: [.read, .write],
            value: .dynamic(read: { _ in .success(recorder.lastValue) }, write: { context in
                recorder.record(context)
                return nil
            }))
        let both = GATTCharacteristic(uuid: BluetoothUUID(0xFFE9), properties: [.notify, .indicate], value: .bytes([0x99]))
        let service = GATTService(
            uuid: BluetoothUUID(0xFFE0),
            characteristics: [long, fixed, short, failing, notifying, indicating, reliable, dynamic, both])
        let database = try GATTDatabase(services: [service], genericAccess: nil, includesGenericAttributeService: false)
        return Values(database: database, long: long, fixed: fixed, short: short, failing: failing,
                      notifying: notifying, indicating: indicating, reliable: reliable, dynamic: dynamic, both: both)
    }

    /// One characteristic per security requirement, no GAP or GATT service. Each value
    /// is one octet, 01; each is readable and writable with the listed requirement
    /// unless noted.
    ///
    ///     0001 Primary Service FFF0
    ///     0002/0003 FFF1 read only, no requirement
    ///     0004/0005 FFF2 encryption
    ///     0006/0007 FFF3 authentication
    ///     0008/0009 FFF4 authorization
    ///     000A/000B FFF5 encryption with a 16-octet key
    ///     000C/000D FFF6 write only, authentication
    ///     000E/000F FFF7 authorization + authentication, 16-octet key
    ///     0010/0011 FFF8 read|notify, reading needs encryption; 0012 CCCD
    static func security() throws -> GATTDatabase {
        func c(_ uuid: UInt16, _ properties: GATTCharacteristic.Properties, _ permissions: AttributePermissions) -> GATTCharacteristic {
            GATTCharacteristic(uuid: BluetoothUUID(uuid), properties: properties, permissions: permissions, value: .bytes([0x01]))
        }
        let strict = AttributePermissions.Access([.authorization, .authentication], minimumKeySize: 16)
        let key16 = AttributePermissions.Access(.encryption, minimumKeySize: 16)
        let service = GATTService(uuid: BluetoothUUID(0xFFF0), characteristics: [
            c(0xFFF1, [.read], .readable),
            c(0xFFF2, [.read, .write], AttributePermissions(read: .encrypted, write: .encrypted)),
            c(0xFFF3, [.read, .write], AttributePermissions(read: .authenticated, write: .authenticated)),
            c(0xFFF4, [.read, .write], AttributePermissions(read: .authorized, write: .authorized)),
            c(0xFFF5, [.read, .write], AttributePermissions(read: key16, write: key16)),
            c(0xFFF6, [.write], AttributePermissions(write: .authenticated)),
            c(0xFFF7, [.read, .write], AttributePermissions(read: strict, write: strict)),
            c(0xFFF8, [.read, .notify], AttributePermissions(read: .encrypted)),
        ])
        return try GATTDatabase(services: [service], genericAccess: nil, includesGenericAttributeService: false)
    }
}
