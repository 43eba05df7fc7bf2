import SwiftATTPDU

extension GATTClient {
    /// Read Characteristic Value (Core 5.4 Vol 3 Part G §4.8.1), and Read Characteristic
    /// Descriptors (§4.12.1), which is the same Read Request at a descriptor's handle.
    ///
    /// One Read Request; the value is the Read Response's, at most ATT_MTU−1 octets (a
    /// longer value is cut there: read it with `ReadLongCharacteristicValues`).
    public struct ReadCharacteristicValue: GATTProcedure, GATTCoreProcedure {
        public typealias Output = [UInt8]

        public let mtu: Int
        /// The value's handle.
        public let handle: UInt16

        var core = GATTProcedureCore<Output>(roundTripLimit: 1)

        /// A procedure reading the value at `handle`.
        public init(handle: UInt16, mtu: Int) {
            self.mtu = GATTClient.clamp(mtu)
            self.handle = handle
        }

        public mutating func start() -> Step {
            core.begin(.request(.readRequest(ReadRequest(handle: handle))))
        }

        func advance(_ pdu: ATTPDU) -> Step {
            switch pdu {
            case let .readResponse(read): return .done(Array(read.value))
            case let .errorResponse(error): return .failed(.attribute(error))
            default: return .failed(.unexpectedResponse(pdu.opcode, request: .readRequest))
            }
        }
    }

    /// Read Characteristic Descriptors (§4.12.1): a Read Request at the descriptor's handle.
    public typealias ReadCharacteristicDescriptor = ReadCharacteristicValue
}
