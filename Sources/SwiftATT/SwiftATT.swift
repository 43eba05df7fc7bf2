// The whole host API behind one import, the way an iOS app imports CoreBluetooth:
//
//     import SwiftATT
//     let central = try await Central.start(transport: "hci0")
//
// Each layer is also a library product of its own (Documentation/Library.md: "What
// is here"); a tool that needs only the ATT codec links SwiftATTPDU and nothing else.
@_exported import SwiftATTCore
@_exported import SwiftATTPDU
@_exported import SwiftATTHCI
@_exported import SwiftATTAdvertising
@_exported import SwiftATTTransport
@_exported import SwiftATTL2CAP
@_exported import SwiftATTGATT
@_exported import SwiftATTSMP
@_exported import SwiftATTSecurity
@_exported import SwiftATTHost
