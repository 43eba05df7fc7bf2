// Documentation/Library.md: "One thread for the hosts, and for your tasks". The example is
// a fragment; what it uses is declared first.
import SwiftATT

let spec = try TransportSpecification(parsing: "tcp:127.0.0.1:9000")
let measurementCharacteristic = GATTCharacteristic(uuid: BluetoothUUID(0x2A37), properties: [.notify])
let database = try GATTDatabase(services: [GATTService(uuid: BluetoothUUID(0x180D), characteristics: [measurementCharacteristic])])
let peer = try await Central.start(transport: "hci1").connect(BluetoothAddress(0xC0FF_EE00_0001, kind: .random))
let measurement = try await peer.discoverDatabase().characteristics(uuid: BluetoothUUID(0x2A37))[0]

let central = try await Central.start(transport: "hci0")
let peripheral = try await Peripheral.start(transport: spec, database: database)
let printer = Task(executorPreference: central.eventLoop) {
    for try await value in try await peer.notifications(of: measurement) { print(value.value) }
}
_ = (central, peripheral, printer)
