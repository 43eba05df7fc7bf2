import SwiftATTCore

/// A service: a declaration, the services it includes, and its characteristics.
/// Core 5.4 Vol 3 Part G §3.1–§3.2.
///
/// Included services are referenced by object and must be part of the same database,
/// before or after the including service. A description, immutable once made.
public final class GATTService: Sendable {
    /// The service's type.
    public let uuid: BluetoothUUID
    /// Primary (discoverable) or secondary (only meaningful where included).
    public let isPrimary: Bool
    /// The services this one includes (Include declarations).
    public let includedServices: [GATTService]
    /// The characteristics, in the order they get handles.
    public let characteristics: [GATTCharacteristic]
    /// A handle this service's declaration must have; handles after the previous service
    /// up to it stay unused. `nil`: the next free handle.
    public let startHandle: UInt16?

    /// A service of `uuid`; primary by default, its handles the next free ones.
    public init(
        uuid: BluetoothUUID,
        isPrimary: Bool = true,
        includedServices: [GATTService] = [],
        characteristics: [GATTCharacteristic] = [],
        startHandle: UInt16? = nil
    ) {
        self.uuid = uuid
        self.isPrimary = isPrimary
        self.includedServices = includedServices
        self.characteristics = characteristics
        self.startHandle = startHandle
    }
}
