#if canImport(Glibc)
import Glibc
#endif
import SwiftATTAdvertising
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost
import SwiftATTLoopback
import Synchronization

/// A peripheral and a central on one loopback link, as the end-to-end tests use them.
struct LoopbackFixture {
    static let service = BluetoothUUID(0xFEED)
    static let streamUUID = BluetoothUUID(0xFE01)
    static let labelUUID = BluetoothUUID(0xFE02)
    static let settingUUID = BluetoothUUID(0xFE03)

    /// What the central wrote to the setting characteristic, in order.
    final class Writes: Sendable {
        let values = Mutex<[[UInt8]]>([])
        /// The thread each write callback ran on (the peripheral's loop thread).
        let threads = Mutex<[pthread_t]>([])
    }

    /// A service with a notifying stream, a readable label and a writable setting.
    static func database(writes: Writes) throws -> (GATTDatabase, stream: GATTCharacteristic) {
        let stream = GATTCharacteristic(uuid: streamUUID, properties: [.notify])
        let label = GATTCharacteristic(uuid: labelUUID, properties: [.read], value: .fixed(Array("loopback".utf8)))
        let setting = GATTCharacteristic(uuid: settingUUID, properties: [.write, .writeWithoutResponse],
                                         value: .bytes([], onWrite: { context in
                                             writes.values.withLock { $0.append(Array(context.value)) }
                                             writes.threads.withLock { $0.append(pthread_self()) }
                                             return nil
                                         }))
        let database = try GATTDatabase(services: [GATTService(uuid: service, characteristics: [stream, label, setting])],
                                        genericAccess: GATTGenericAccess(deviceName: "loopback", appearance: 0))
        return (database, stream)
    }

    static func advertisement() throws -> [UInt8] {
        var builder = AdvertisingDataBuilder()
        try builder.append(.flags(.leGeneralDiscoverableLEOnly))
        try builder.append(.serviceUUIDs(ServiceUUIDList([service])))
        _ = try builder.appendLocalName("loopback")
        return builder.advertisingData.encoded()
    }
}
