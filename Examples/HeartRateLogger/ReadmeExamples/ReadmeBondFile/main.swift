// Documentation/Security.md: "Bonds that last". A complete program.
import SwiftATT
import SwiftATTBondFile

let bonds = try BondFile.open(atPath: "/var/lib/my-sensor/bonds.json")
let central = try await Central.start(transport: "hci0", storage: bonds)
print("connecting as", central.info.randomAddress)            // the same address every run
let peer = try await central.connect(BluetoothAddress(0xD122_3344_5566, kind: .random))
try await peer.secure()                                       // the stored key, or pairing
for bond in central.controller.bonds.bonds { print(bond.peer, bond.secureConnections) }
await central.close()
bonds.close()                                                 // releases FILE.lock
