import SwiftATTPDU

extension GATTClient {
    /// Configures notifications and indications of a characteristic: writes its Client
    /// Characteristic Configuration descriptor (Core 5.4 Vol 3 Part G §3.3.3.3, §4.12.3)
    /// with 0x0001 (notifications), 0x0002 (indications), both, or 0x0000 (neither).
    ///
    /// One Write Request of the two octets. Given the characteristic's properties, a bit
    /// it does not allow (notify, indicate) is refused before anything is sent.
    /// Notifications and indications then arrive as bearer actions for the value handle.
    public struct WriteClientCharacteristicConfiguration: GATTProcedure {
        public typealias Output = Void

        public let mtu: Int
        /// The descriptor's handle.
        public let handle: UInt16
        /// The subscription to write: notification, indication, both or none.
        public let configuration: GATTClientConfiguration
        /// The characteristic's properties, when known, to refuse bits it lacks.
        public let properties: GATTCharacteristic.Properties?

        var write: WriteCharacteristicValue

        /// A procedure writing `configuration` to the descriptor at `handle`; with the
        /// characteristic's `properties`, it refuses a subscription they do not allow.
        public init(handle: UInt16, configuration: GATTClientConfiguration, properties: GATTCharacteristic.Properties? = nil, mtu: Int) {
            self.mtu = GATTClient.clamp(mtu)
            self.handle = handle
            self.configuration = configuration
            self.properties = properties
            write = WriteCharacteristicValue(handle: handle, value: configuration.encoded, mtu: mtu)
        }

        /// For `characteristic`, whose descriptor is at `descriptorHandle`
        /// (`GATTClientDatabase.clientConfigurationHandle(of:)` finds it).
        public init(_ characteristic: Characteristic, descriptorHandle: UInt16, configuration: GATTClientConfiguration, mtu: Int) {
            self.init(handle: descriptorHandle, configuration: configuration, properties: characteristic.properties, mtu: mtu)
        }

        public mutating func start() -> Step {
            if let properties {
                var refusal: String? = nil
                if configuration.contains(.notification) && !properties.contains(.notify) {
                    refusal = self.refusal("notifications", "notify")
                } else if configuration.contains(.indication) && !properties.contains(.indicate) {
                    refusal = self.refusal("indications", "indicate")
                }
                if let refusal {
                    _ = write.cancel()  // over before it starts: nothing more to drive
                    return .failed(.notSupported(refusal))
                }
            }
            return write.start()
        }

        public mutating func receive(_ response: ATTPDU) -> Step { write.receive(response) }

        public mutating func cancel() -> Step? { write.cancel() }

        public mutating func refused(_ error: GATTClientError) -> Step { write.refused(error) }

        private func refusal(_ what: String, _ property: String) -> String {
            "the characteristic does not have the \(property) property (properties 0x"
                + String(properties?.rawValue ?? 0, radix: 16) + "), so it sends no \(what)"
        }
    }
}
