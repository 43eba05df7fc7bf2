import SwiftATTPDU

extension GATTClient {
    /// Write Characteristic Value (Core 5.4 Vol 3 Part G §4.9.3), and Write Characteristic
    /// Descriptors (§4.12.3), the same Write Request at a descriptor's handle.
    ///
    /// One Write Request, answered by a Write Response. The value must fit the request:
    /// at most ATT_MTU−3 octets (`WriteLongCharacteristicValues` writes longer ones).
    public struct WriteCharacteristicValue: GATTProcedure, GATTCoreProcedure {
        public typealias Output = Void

        public let mtu: Int
        /// The value's handle.
        public let handle: UInt16
        /// The bytes to write.
        public let value: [UInt8]

        var core = GATTProcedureCore<Output>(roundTripLimit: 1)

        /// A procedure writing `value` to `handle` with Write Request.
        public init(handle: UInt16, value: [UInt8], mtu: Int) {
            self.mtu = GATTClient.clamp(mtu)
            self.handle = handle
            self.value = value
        }

        public mutating func start() -> Step {
            guard value.count <= mtu - 3 else { return core.begin(.failed(.valueTooLong(length: value.count, maximum: mtu - 3))) }
            return core.begin(.request(.writeRequest(WriteRequest(handle: handle, value: value[...]))))
        }

        func advance(_ pdu: ATTPDU) -> Step {
            switch pdu {
            case .writeResponse: return .done(())
            case let .errorResponse(error): return .failed(.attribute(error))
            default: return .failed(.unexpectedResponse(pdu.opcode, request: .writeRequest))
            }
        }
    }

    /// Write Characteristic Descriptors (§4.12.3): a Write Request at the descriptor's handle.
    public typealias WriteCharacteristicDescriptor = WriteCharacteristicValue
}
