// Documentation/Security.md: "Pairing and encryption". The example is a fragment; what it
// uses is declared first.
import SwiftATT

let central = try await Central.start(transport: "hci0")
guard let device = try await central.firstDevice(ScanFilter(), within: .seconds(10)) else { fatalError("no device") }
let protected = try await central.connect(device.address).discoverDatabase().characteristics(uuid: BluetoothUUID(0xFE01))[0]

try await central.controller.configureSecurity(
    SecurityConfiguration(pairing: PairingConfiguration(ioCapability: .keyboardDisplay)),
    delegate: AutomaticPairingDelegate(passkey: 123456))       // or your own PairingDelegate
let peer = try await central.connect(device.address)
let level = try await peer.pair()                             // .secureConnections(keySize: 16)
let secret = try await peer.read(protected)                   // refused for want of security? pairs, retries once
for await event in central.controller.securityEvents() {      // paired, pairing failed, level changed
    print(event.peer, event.change)
}
_ = (level, secret)
