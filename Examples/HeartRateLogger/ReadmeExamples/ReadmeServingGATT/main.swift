import SwiftATT

let measurement = GATTCharacteristic(uuid: BluetoothUUID(0x2A37), properties: [.notify])
let location = GATTCharacteristic(uuid: BluetoothUUID(0x2A38), properties: [.read], value: .fixed([0x01]))
let heartRate = GATTService(uuid: BluetoothUUID(0x180D), characteristics: [measurement, location])
let database = try GATTDatabase(services: [heartRate], genericAccess: GATTGenericAccess(deviceName: "swift-att HR"))

let peripheral = try await Peripheral.start(transport: "hci0", database: database)
var advertisement = AdvertisingDataBuilder()
try advertisement.append(.flags(.leGeneralDiscoverableLEOnly))
try advertisement.append(.serviceUUIDs(ServiceUUIDList([BluetoothUUID(0x180D)])))
_ = try advertisement.appendLocalName("swift-att HR")
try await peripheral.startAdvertising(data: advertisement.advertisingData.encoded())

for await event in peripheral.events() {
    switch event {
    case let .subscriptionChanged(change) where change.configuration.contains(.notification):
        _ = peripheral.updateValue([0x00, 72], for: measurement)   // 72 bpm
    case .readyToUpdate:
        break   // updateValue returned false earlier: the queues have room again
    default:
        print(event)
    }
}
