import SwiftATT
import SwiftATTProfiles

let central = try await Central.start(transport: "hci0")
let heartRate = ScanFilter(services: [BluetoothUUID(0x180D)])     // or central.scan(heartRate) for them all
guard let device = try await central.firstDevice(heartRate, within: .seconds(10)) else {
    fatalError("no heart-rate monitor within 10 s")
}
let peer = try await central.connect(device.address)          // ATT_MTU exchanged too
let database = try await peer.discoverDatabase()              // services, characteristics, descriptors
if let controlPoint = database.characteristics(uuid: BluetoothUUID(0x2A39)).first {
    try await peer.write([0x01], to: controlPoint)            // .withoutResponse for Write Commands
}
let measurement = database.characteristics(uuid: BluetoothUUID(0x2A37)).first!
for try await value in try await peer.notifications(of: measurement) {   // CCCD written for you
    print(try HeartRateMeasurement(decoding: value.value).beatsPerMinute, "bpm")
}
await central.close()                                         // disconnects, releases the adapter
