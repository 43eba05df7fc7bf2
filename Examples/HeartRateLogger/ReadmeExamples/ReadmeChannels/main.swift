// Documentation/Library.md: "Streams between two programs". Fragments; what they use is
// declared first.
import SwiftATT

let peripheral = try await Peripheral.start(transport: "hci0", database: try GATTDatabase(services: []))
let central = try await Central.start(transport: "hci0")
let peer = try await central.connect(peripheral.info.randomAddress)
func process(_ sdu: [UInt8]) {}

// The side that serves: every channel a peer opens to SPSM 0x0080.
let listener = try await peripheral.controller.listen(on: 0x0080, parameters: .init(security: .encrypted))
for await channel in listener {
    Task {
        for try await sdu in channel.sdus { try await channel.send(sdu) }   // an echo
    }
}

// The side that opens: a channel to the peer's SPSM 0x0080.
let channel = try await peer.openChannel(psm: 0x0080)
try await channel.send(Array("hello".utf8))
for try await sdu in channel.sdus { process(sdu) }
await channel.close()
