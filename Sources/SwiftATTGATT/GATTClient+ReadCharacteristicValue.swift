import SwiftATTPDU

extension GATTClient {
    /// Read Characteristic Value (Core 5.4 Vol 3 Part G §4.8.1), and Read Characteristic
    /// Descriptors (§4.12.1), which is the same Read Request at a descriptor's handle.
    ///
    /// One Read Request; the value is the Read Response's, at most ATT_MTU−1 octets (a
    /// longer value is cut there: read it with `ReadLongCharacteristicValues`).
    public struct ReadCharacteristicValue: GATTProcedure {
        public typealias Output = [UInt8]

        public let mtu: Int
        public let handle: UInt16

        var core = GATTProcedureCore<Output>(roundTripLimit: 1)

        public init(handle: UInt16, mtu: Int) {
            self.mtu = GATTClient.clamp(mtu)
            self.handle = handle
        }

        public mutating func start() -> Step {
            core.begin(.request(.readRequest(ReadRequest(handle: handle))))
        }

        public mutating func receive(_ response: ATTPDU) -> Step {
            switch core.intake(response) {
            case let .stop(step): return step
            case let .handle(.readResponse(read)): return core.emit(.done(Array(read.value)))
            case let .handle(.errorResponse(error)): return core.emit(.failed(.attribute(error)))
            case let .handle(pdu): return core.emit(.failed(.unexpectedResponse(pdu.opcode, request: .readRequest)))
            }
        }

        public mutating func cancel() -> Step? { core.cancel() }

        public mutating func refused(_ error: GATTClientError) -> Step { core.refused(error) }
    }

    /// Read Characteristic Descriptors (§4.12.1): a Read Request at the descriptor's handle.
    public typealias ReadCharacteristicDescriptor = ReadCharacteristicValue
}
