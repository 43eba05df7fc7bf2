import SwiftATTPDU

extension GATTClient {
    /// Read Multiple Characteristic Values (Core 5.4 Vol 3 Part G §4.8.4): several values
    /// of known, fixed lengths in one Read Multiple Request.
    ///
    /// The response concatenates the values with nothing between them, so the caller
    /// gives each value's length and the procedure splits by them; a response of another
    /// total length fails it. The values together must fit ATT_MTU−1 octets (the server
    /// cuts the response there, and a cut value cannot be told from a short one), and the
    /// request must fit ATT_MTU. One handle is read with a Read Request, as a Read
    /// Multiple Request needs two; none finishes at once.
    public struct ReadMultipleCharacteristicValues: GATTProcedure, GATTCoreProcedure {
        public typealias Output = [[UInt8]]

        public let mtu: Int
        /// The values' handles, in order.
        public let handles: [UInt16]
        /// Each value's length, known beforehand: the response does not carry them.
        public let lengths: [Int]

        var core = GATTProcedureCore<Output>(roundTripLimit: 1)

        /// A procedure reading `values`, each of a known length.
        public init(_ values: [(handle: UInt16, length: Int)], mtu: Int) {
            self.mtu = GATTClient.clamp(mtu)
            handles = values.map(\.handle)
            lengths = values.map(\.length)
        }

        /// How many handles one request holds at `mtu`.
        public static func maximumHandles(mtu: Int) -> Int { (GATTClient.clamp(mtu) - 1) / 2 }

        public mutating func start() -> Step {
            if let negative = lengths.first(where: { $0 < 0 }) {
                return core.begin(.failed(.notSupported("Read Multiple needs each value's length; \(negative) is not a length")))
            }
            let maximum = Self.maximumHandles(mtu: mtu)
            guard handles.count <= maximum else { return core.begin(.failed(.tooManyHandles(count: handles.count, maximum: maximum))) }
            // Lengths capped past any value's, so the sum cannot overflow.
            let total = lengths.reduce(0) { $0 + min($1, ATTLimits.maximumAttributeValueLength + 1) }
            guard total <= mtu - 1 else { return core.begin(.failed(.valueTooLong(length: total, maximum: mtu - 1))) }
            switch handles.count {
            case 0: return core.begin(.done([]))
            case 1: return core.begin(.request(.readRequest(ReadRequest(handle: handles[0]))))
            default: return core.begin(.request(.readMultipleRequest(ReadMultipleRequest(setOfHandles: ATTHandleList(handles)))))
            }
        }

        func advance(_ pdu: ATTPDU) -> Step {
            switch pdu {
            case let .readMultipleResponse(read): return split(read.setOfValues, ReadMultipleResponse.opcode)
            case let .readResponse(read): return split(read.value, ReadResponse.opcode)
            case let .errorResponse(error): return .failed(.attribute(error))
            default: return .failed(.unexpectedResponse(pdu.opcode, request: nil))
            }
        }

        private func split(_ bytes: ArraySlice<UInt8>, _ opcode: ATTOpcode) -> Step {
            let total = lengths.reduce(0, +)
            guard bytes.count == total else {
                return .failed(.malformedResponse(.lengthMismatch(opcode, expected: total, found: bytes.count)))
            }
            var values: [[UInt8]] = []
            var offset = 0
            for length in lengths {
                values.append(Array(bytes.bytes(at: offset, count: length)))
                offset += length
            }
            return .done(values)
        }
    }
}
