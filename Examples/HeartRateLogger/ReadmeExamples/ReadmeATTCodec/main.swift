import SwiftATTPDU

let pdu = try ATTPDU(parsing: [0x1B, 0x14, 0x00, 0x06, 0x48])
if case let .handleValueNotification(n) = pdu {
    print(n.handle, Array(n.value))          // 20 [6, 72]
}
let bytes = ReadRequest(handle: 0x0017).encoded()   // [0x0a, 0x17, 0x00]

// Borrowed: nothing retained, byte fields are ranges of the span.
let packet: [UInt8] = [0x1B, 0x14, 0x00, 0x06, 0x48]
let span = packet.span
if case let .handleValueNotification(n) = try ATTPDU.Borrowed(parsing: span) {
    let value = span.extracting(n.value)
    print(n.handle, n.value, value[0])       // 20 3..<5 6
}
