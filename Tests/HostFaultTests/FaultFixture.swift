import SwiftATTAdvertising
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost
import SwiftATTLoopback
import TestSupport

/// The database the fault tests attack, and small helpers they share.
enum FaultFixture {
    static let service = BluetoothUUID(0xFA00)
    static let labelText = Array("loopback".utf8)
    /// Readable, fixed: what "the link still works" reads.
    static let label = GATTCharacteristic(uuid: BluetoothUUID(0xFA01), properties: [.read], value: .fixed(labelText))
    /// Writable (with and without response, and by prepared writes).
    static let setting = GATTCharacteristic(uuid: BluetoothUUID(0xFA02), properties: [.read, .write, .writeWithoutResponse],
                                            extendedProperties: [.reliableWrite], value: .bytes([0x00]))
    /// Read-only: Write Not Permitted for every kind of write.
    static let readOnly = GATTCharacteristic(uuid: BluetoothUUID(0xFA03), properties: [.read], value: .bytes([0x01, 0x02, 0x03]))
    /// 100 octets: longer than ATT_MTU 23 allows in one Read Response.
    static let long = GATTCharacteristic(uuid: BluetoothUUID(0xFA04), properties: [.read], value: .fixed((0..<100).map { UInt8($0) }))
    /// Notifies whatever the peripheral updates it to.
    static let stream = GATTCharacteristic(uuid: BluetoothUUID(0xFA05), properties: [.notify])
    /// One characteristic per security requirement, readable and writable once met.
    static let encrypted = protected(0xFA10, .encrypted)
    static let authenticated = protected(0xFA11, .authenticated)
    static let authorized = protected(0xFA12, .authorized)
    static let authorizedAndAuthenticated = protected(0xFA13, AttributePermissions.Access([.authorization, .authentication]))

    static func protected(_ uuid: UInt16, _ access: AttributePermissions.Access) -> GATTCharacteristic {
        GATTCharacteristic(uuid: BluetoothUUID(uuid), properties: [.read, .write],
                           permissions: AttributePermissions(read: access, write: access), value: .bytes([0x5A]))
    }

    static func database() throws -> GATTDatabase {
        try GATTDatabase(services: [GATTService(uuid: service, characteristics: [
            label, setting, readOnly, long, stream, encrypted, authenticated, authorized, authorizedAndAuthenticated,
        ])], genericAccess: GATTGenericAccess(deviceName: "faults", appearance: 0))
    }

    static let advertisement: [UInt8] = [0x02, 0x01, 0x06]
}

/// The elements of `stream` up to and including the first that `isLast` accepts; throws
/// when it does not come within `timeout`.
func collect<S: AsyncSequence & Sendable>(
    _ stream: S, within timeout: Duration = .seconds(30), until isLast: @escaping @Sendable (S.Element) -> Bool
) async throws -> [S.Element] where S.Element: Sendable {
    let collected = try await withTimeout(timeout) { () -> [S.Element]? in
        var elements: [S.Element] = []
        for try await element in stream {
            elements.append(element)
            if isLast(element) { return elements }
        }
        return nil
    }
    guard let collected else { throw TimedOut(what: "the last element awaited") }
    return collected
}
