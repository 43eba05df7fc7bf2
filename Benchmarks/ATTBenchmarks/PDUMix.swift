import SwiftATTPDU

/// The realistic PDU mix the ATT benchmark measures: what a GATT client and server
/// exchange most during discovery and streaming.
enum PDUMix {
    struct Case {
        let name: String
        let bytes: [UInt8]
    }

    static func handle(_ h: UInt16) -> [UInt8] { [UInt8(h & 0xFF), UInt8(h >> 8)] }

    static var cases: [Case] {
        var out: [Case] = []
        // Handle Value Notification, 20-byte value (ATT_MTU 23) and 244-byte (ATT_MTU 247).
        out.append(Case(name: "Notification 20 B", bytes: [0x1B] + handle(0x0014) + (0..<20).map { UInt8($0) }))
        out.append(Case(name: "Notification 244 B", bytes: [0x1B] + handle(0x0014) + (0..<244).map { UInt8($0 & 0xFF) }))
        // Read By Group Type Response: 10 primary services with 16-bit UUIDs.
        var groups: [UInt8] = [0x11, 6]
        for i in 0..<10 {
            let start = UInt16(1 + i * 8)
            groups += handle(start) + handle(start + 7) + handle(0x1800 + UInt16(i))
        }
        out.append(Case(name: "Read By Group Type Rsp ×10", bytes: groups))
        // Read By Type Response: 8 characteristic declarations (properties, value handle, UUID16).
        var decls: [UInt8] = [0x09, 7]
        for i in 0..<8 {
            let h = UInt16(0x10 + i * 3)
            decls += handle(h) + [0x12] + handle(h + 1) + handle(0x2A37 + UInt16(i))
        }
        out.append(Case(name: "Read By Type Rsp (decl) ×8", bytes: decls))
        // Find Information Response, format 1: 10 handle–UUID16 pairs.
        var info: [UInt8] = [0x05, 0x01]
        for i in 0..<10 { info += handle(UInt16(0x20 + i)) + handle(0x2900 + UInt16(i % 3)) }
        out.append(Case(name: "Find Information Rsp ×10", bytes: info))
        out.append(Case(name: "Write Request 20 B", bytes: [0x12] + handle(0x0019) + (0..<20).map { UInt8(0xA0 &+ $0) }))
        out.append(Case(name: "Error Response", bytes: [0x01, 0x0A] + handle(0x0029) + [0x02]))
        out.append(Case(name: "Exchange MTU Request", bytes: [0x02] + handle(247)))
        return out
    }
}
