import SwiftATTPDU
import SwiftATTCore

/// The GATT client: what a client learns about a server's database, and the procedures
/// that learn it, read it and write it. Core 5.4 Vol 3 Part G §4.
///
/// Pure, like the rest of the layer: every procedure is a `GATTProcedure` value that a
/// host drives over its `ATTBearer` (it sends what `start()` and `receive(_:)` ask for and
/// feeds back the answers), so none of them does I/O, keeps a clock or needs a thread.
/// Exchange MTU (§4.3.1) belongs to the bearer; Notifications and Indications (§4.10,
/// §4.11) arrive as bearer actions, indications confirmed by the bearer; the commands
/// (Write Without Response, Signed Write Without Response) are PDU builders, since they
/// get no answer.
///
/// Types here are plain values: handles and UUIDs as the server reported them.
public enum GATTClient {
    /// A service the client discovered: Part G §3.1.
    public struct Service: Sendable, Hashable {
        /// The service's type.
        public var uuid: BluetoothUUID
        /// The service declaration's handle through the service's last handle.
        public var handles: ClosedRange<UInt16>
        /// Primary (found by service discovery) or secondary (found only as an included
        /// service).
        public var isPrimary: Bool

        /// A service of `uuid` over `handles`.
        public init(uuid: BluetoothUUID, handles: ClosedRange<UInt16>, isPrimary: Bool = true) {
            self.uuid = uuid
            self.handles = handles
            self.isPrimary = isPrimary
        }
    }

    /// An include declaration of a service: Part G §3.2.
    public struct IncludedService: Sendable, Hashable {
        /// The include declaration's own handle (inside the including service).
        public var declarationHandle: UInt16
        /// The included service's handles, its declaration first.
        public var handles: ClosedRange<UInt16>
        /// The included service's type.
        public var uuid: BluetoothUUID

        /// An include declaration at `declarationHandle` of the service over `handles`.
        public init(declarationHandle: UInt16, handles: ClosedRange<UInt16>, uuid: BluetoothUUID) {
            self.declarationHandle = declarationHandle
            self.handles = handles
            self.uuid = uuid
        }
    }

    /// A characteristic the client discovered: its declaration (Part G §3.3.1) and the
    /// last handle of its definition, which the client derives from the next declaration
    /// or the end of the service (§4.6.1).
    public struct Characteristic: Sendable, Hashable {
        /// The characteristic's type.
        public var uuid: BluetoothUUID
        /// The characteristic declaration's handle.
        public var declarationHandle: UInt16
        /// The value's handle: what reads, writes and notifications name.
        public var valueHandle: UInt16
        /// The last handle of the definition: its last descriptor, or the value handle.
        public var endHandle: UInt16
        /// What the server allows with the value.
        public var properties: GATTCharacteristic.Properties

        /// A characteristic as the declaration and the next one described it.
        public init(
            uuid: BluetoothUUID, declarationHandle: UInt16, valueHandle: UInt16, endHandle: UInt16,
            properties: GATTCharacteristic.Properties
        ) {
            self.uuid = uuid
            self.declarationHandle = declarationHandle
            self.valueHandle = valueHandle
            self.endHandle = endHandle
            self.properties = properties
        }

        /// Where its descriptors can be: after the value, through the end handle. Empty
        /// (`nil`) when the value is the definition's last attribute.
        public var descriptorHandles: ClosedRange<UInt16>? {
            valueHandle < endHandle ? (valueHandle + 1)...endHandle : nil
        }
    }

    /// A characteristic descriptor: its handle and type (Part G §3.3.3).
    public struct Descriptor: Sendable, Hashable {
        /// The descriptor's handle.
        public var handle: UInt16
        /// The descriptor's type.
        public var uuid: BluetoothUUID

        /// A descriptor at `handle` of type `uuid`.
        public init(handle: UInt16, uuid: BluetoothUUID) {
            self.handle = handle
            self.uuid = uuid
        }
    }

    /// One attribute's handle and value, as Read Using Characteristic UUID returns them.
    public struct HandleValue: Sendable, Hashable {
        /// The attribute's handle.
        public var handle: UInt16
        /// Its value.
        public var value: [UInt8]

        /// The value at `handle`.
        public init(handle: UInt16, value: [UInt8]) {
            self.handle = handle
            self.value = value
        }
    }

    /// A UUID in the form a server stores a service UUID and a characteristic type: 16
    /// bits when it has a 16-bit alias, else 128 bits (ATT carries no 32-bit UUIDs,
    /// Part G §2.5.4). Find By Type Value compares bytes, so the request must match it.
    static func wireForm(_ uuid: BluetoothUUID) -> BluetoothUUID {
        uuid.uuid16 != nil ? uuid.shortened : uuid.widened
    }

    /// The ATT_MTU a procedure works with: never below the LE minimum of 23.
    static func clamp(_ mtu: Int) -> Int {
        min(max(mtu, ATTLimits.defaultMTU), Int(UInt16.max))
    }
}
