import SwiftATTPDU
import SwiftATTGATT

/// The attribute database both GATT targets fuzz against: every kind of value the server
/// serves, so requests reach every branch of it.
///
///     GAP and GATT services (writable Device Name, Service Changed, Client Supported
///     Features, Database Hash), then primary service FFE0 including secondary FFF0:
///     FFE1 long     read|write|notify, reliable + writable auxiliaries, 300 of 512 octets,
///                   User Description, CCCD
///     FFE2 fixed    read|write, exactly 2 octets
///     FFE3 guarded  read needs encryption, write needs authentication
///     FFE4 strict   authorization + authentication with a 16-octet key
///     FFE5 callback read: octets depend on the offset (600 at offset 0, past the ATT
///                   limit); write: refuses a value starting EE with 0x80
///     FFE6 failing  read fails 0x80, write fails 0x81 (handlers)
///     FFE7 signal   broadcast|indicate|notify|write without response|signed writes, CCCD,
///                   Server Characteristic Configuration
///     FFF0 (secondary, a 128-bit characteristic) with Presentation and Aggregate Formats
///
/// `alternate` is the same with FFE2 gone, for Service Changed and Robust Caching.
enum FuzzDatabase {
    /// Built once: a database is immutable, and building one (with its hash) per input
    /// would cost more than serving the input.
    static let main = make()
    static let alternate = make(alternate: true)

    static let longValue: [UInt8] = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) }

    static func make(alternate: Bool = false) -> GATTDatabase {
        let long = GATTCharacteristic(
            uuid: BluetoothUUID(0xFFE1), properties: [.read, .write, .notify],
            extendedProperties: [.reliableWrite, .writableAuxiliaries],
            value: .bytes(longValue), descriptors: [.userDescription("Long value")])
        let fixed = GATTCharacteristic(uuid: BluetoothUUID(0xFFE2), properties: [.read, .write], value: .fixed([0x11, 0x22]))
        let guarded = GATTCharacteristic(
            uuid: BluetoothUUID(0xFFE3), properties: [.read, .write],
            permissions: AttributePermissions(read: .encrypted, write: .authenticated), value: .bytes([0x01]))
        let strictAccess = AttributePermissions.Access([.authorization, .authentication], minimumKeySize: 16)
        let strict = GATTCharacteristic(
            uuid: BluetoothUUID(0xFFE4), properties: [.read, .write],
            permissions: AttributePermissions(read: strictAccess, write: strictAccess), value: .text("strict"))
        let callback = GATTCharacteristic(
            uuid: BluetoothUUID(0xFFE5), properties: [.read, .write],
            value: .dynamic(read: { context in
                .success([UInt8](repeating: UInt8(truncatingIfNeeded: context.offset), count: max(0, 600 - context.offset)))
            }, write: { context in
                context.value.first == 0xEE ? ATTErrorCode(0x80) : nil
            }))
        let failing = GATTCharacteristic(
            uuid: BluetoothUUID(0xFFE6), properties: [.read, .write],
            value: .dynamic(read: { _ in .failure(ATTErrorCode(0x80)) }, write: { _ in ATTErrorCode(0x81) }))
        let signal = GATTCharacteristic(
            uuid: BluetoothUUID(0xFFE7), properties: [.broadcast, .read, .indicate, .notify, .writeWithoutResponse, .authenticatedSignedWrites],
            value: .bytes([0x42], length: .variable(maximum: 20)),
            descriptors: [.serverCharacteristicConfiguration()])
        let format = GATTDescriptor.presentationFormat(GATTPresentationFormat(format: 0x06, unit: 0x2700))
        let secondary = GATTService(
            uuid: BluetoothUUID(0xFFF0), isPrimary: false,
            characteristics: [GATTCharacteristic(
                uuid: BluetoothUUID(uuid128: 0x6E40_0001_B5A3_F393_E0A9_E50E_24DC_CA9E), properties: [.read],
                value: .bytes([0xAB, 0xCD]), descriptors: [format, .aggregateFormat([format])])])
        var characteristics = [long, fixed, guarded, strict, callback, failing, signal]
        if alternate { characteristics.remove(at: 1) }
        let primary = GATTService(uuid: BluetoothUUID(0xFFE0), includedServices: [secondary], characteristics: characteristics)
        do {
            return try GATTDatabase(services: [secondary, primary],
                                    genericAccess: GATTGenericAccess(deviceName: "fuzz", deviceNameWritable: true))
        } catch {
            fatalError("the fuzz database is invalid: \(error)")
        }
    }
}
