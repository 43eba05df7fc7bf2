/// The value of a Characteristic Presentation Format descriptor: how to show the value.
///
/// Core 5.4 Vol 3 Part G §3.3.3.5; the format, unit and description numbers are in the
/// Assigned Numbers document (format 0x04 is uint8, unit 0x27AD is percentage).
public struct GATTPresentationFormat: Sendable, Hashable {
    /// The value's format (Assigned Numbers: 0x04 uint8, 0x06 uint16, 0x19 UTF-8 string…).
    public var format: UInt8
    /// The value is multiplied by 10^exponent.
    public var exponent: Int8
    /// The unit (Assigned Numbers); 0x2700 is unitless.
    public var unit: UInt16
    /// 0x01: the Bluetooth SIG Assigned Numbers namespace.
    public var namespace: UInt8
    /// A description of the value from the namespace (0x0000: unknown).
    public var description: UInt16

    /// A format of `format` in `unit`, scaled by 10^`exponent`.
    public init(format: UInt8, exponent: Int8 = 0, unit: UInt16 = 0x2700, namespace: UInt8 = 0x01, description: UInt16 = 0x0000) {
        self.format = format
        self.exponent = exponent
        self.unit = unit
        self.namespace = namespace
        self.description = description
    }

    /// The seven octets of the descriptor value.
    public var encoded: [UInt8] {
        [format, UInt8(bitPattern: exponent),
         UInt8(truncatingIfNeeded: unit), UInt8(truncatingIfNeeded: unit >> 8),
         namespace,
         UInt8(truncatingIfNeeded: description), UInt8(truncatingIfNeeded: description >> 8)]
    }
}
