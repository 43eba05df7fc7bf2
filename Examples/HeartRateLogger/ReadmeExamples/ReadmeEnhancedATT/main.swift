// Documentation/Library.md: "GATT on several channels at once: Enhanced ATT". Fragments;
// what they use is declared first.
import SwiftATT

// The server's side.
let temperature = GATTCharacteristic(uuid: BluetoothUUID(0x2A6E), properties: [.read, .notify], value: .fixed([0, 0]))
let humidity = GATTCharacteristic(uuid: BluetoothUUID(0x2A6F), properties: [.read, .notify], value: .fixed([0, 0]))
let sensor = GATTService(uuid: BluetoothUUID(0x181A), characteristics: [temperature, humidity])
let database = try GATTDatabase(services: [sensor], serverFeatures: [.enhancedATT])
let peripheral = try await Peripheral.start(transport: "hci0", database: database)
// Both values of one instant, in one Multiple Handle Value Notification where the
// central asked for them (the others get a notification each).
await peripheral.updateValues([(temperature, [0x2C, 0x08]), (humidity, [0x10, 0x17])])

// The client's side.
let central = try await Central.start(transport: "hci0")
let peer = try await central.connect(peripheral.info.randomAddress)
let opened = try await peer.openEnhancedBearers(5)          // how many the link has now
let remote = try await peer.discoverDatabase()          // in parallel over the bearers
try await peer.announceClientFeatures([.enhancedATT, .multipleHandleValueNotifications])
let characteristics = remote.characteristics(uuid: BluetoothUUID(0x2A6E))
    + remote.characteristics(uuid: BluetoothUUID(0x2A6F))
// Many values in as few round trips as the server allows (Read Multiple Variable Length).
let values = try await peer.read(characteristics)
// Or one read per task, run at once over the bearers.
try await withThrowingTaskGroup(of: [UInt8].self) { group in
    for characteristic in characteristics { group.addTask { try await peer.read(characteristic) } }
    for try await value in group { print(opened, value) }
}
