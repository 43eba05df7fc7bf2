/// A command's opcode: Opcode Group Field (upper 6 bits) and Opcode Command Field
/// (lower 10 bits). Core 5.4 Vol 4 Part E §5.4.1.
public struct HCIOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The opcode of group `ogf` and command `ocf`. Inlinable, as every command's
    /// `opcode` is: a constant where a command is sent or its answer matched, not a
    /// stored static read through its accessor.
    @inlinable
    public init(ogf: UInt8, ocf: UInt16) {
        rawValue = UInt16(ogf & 0x3F) << 10 | (ocf & 0x3FF)
    }

    /// The Opcode Group Field: bits 10–15 (0x08 for LE commands).
    public var ogf: UInt8 { UInt8(rawValue >> 10) }
    /// The Opcode Command Field: bits 0–9.
    public var ocf: UInt16 { rawValue & 0x3FF }

    /// The spec's name of the command, when swift-att knows it.
    public var name: String? { HCICommandNames.name(of: self) }

    /// `LE Set Scan Enable (0x200c)`, or `OGF 0x3f OCF 0x001 (0xfc01)` for vendor commands.
    public var description: String {
        let hex = "0x" + String(rawValue, radix: 16).leftPadded(to: 4)
        if let name { return "\(name) (\(hex))" }
        return "OGF 0x\(String(ogf, radix: 16)) OCF 0x\(String(ocf, radix: 16).leftPadded(to: 3)) (\(hex))"
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
