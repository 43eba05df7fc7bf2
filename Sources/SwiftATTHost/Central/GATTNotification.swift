/// A value the peer's GATT server pushed: a Handle Value Notification or Indication
/// (Core 5.4 Vol 3 Part G §4.10, §4.11). Indications are already confirmed when they
/// arrive here.
public struct GATTNotification: Sendable, Hashable {
    /// The characteristic value's handle.
    public var handle: UInt16
    /// The characteristic's new value.
    public var value: [UInt8]
    /// Indicated (confirmed) rather than notified.
    public var isIndication: Bool

    /// A value pushed for `handle`.
    public init(handle: UInt16, value: [UInt8], isIndication: Bool) {
        self.handle = handle
        self.value = value
        self.isIndication = isIndication
    }
}
