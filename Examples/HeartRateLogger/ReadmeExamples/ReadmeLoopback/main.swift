// Documentation/Testing.md: "Testing without Bumble". The example is a fragment; what it
// uses is declared first.
import SwiftATT
import SwiftATTLoopback

let database = try GATTDatabase(services: [])

let link = LoopbackLink()
let peripheral = try await Peripheral.start(transport: link.addController().specification, database: database)
let central = try await Central.start(transport: link.addController().specification)
_ = (peripheral, central)
