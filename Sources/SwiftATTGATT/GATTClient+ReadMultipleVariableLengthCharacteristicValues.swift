import SwiftATTPDU

extension GATTClient {
    /// Read Multiple Variable Length Characteristic Values (Core 5.4 Vol 3 Part G §4.8.5):
    /// several values of any length in one Read Multiple Variable Request.
    ///
    /// Each value comes with its length. The server stops at ATT_MTU−1 octets, cutting
    /// the last value it fits (its length still says how long it is) and leaving out the
    /// rest (Part F §3.4.4.12); the procedure then reads what is missing with Read Blob
    /// (a cut value, from where it was cut) or Read Long (a left-out value), so every
    /// value comes back whole. One handle is read with Read Long at once, as the request
    /// needs two; none finishes at once. The request must fit ATT_MTU.
    public struct ReadMultipleVariableLengthCharacteristicValues: GATTProcedure, GATTCoreProcedure {
        public typealias Output = [[UInt8]]

        public let mtu: Int
        public let handles: [UInt16]

        var core = GATTProcedureCore<Output>(roundTripLimit: .max)
        var values: [[UInt8]] = []
        /// Indices of values still incomplete, in order.
        var incomplete: [Int] = []
        /// The read completing `incomplete.first`.
        var completion: ReadLongCharacteristicValues?

        public init(handles: [UInt16], mtu: Int) {
            self.mtu = GATTClient.clamp(mtu)
            self.handles = handles
        }

        public mutating func start() -> Step {
            let maximum = ReadMultipleCharacteristicValues.maximumHandles(mtu: mtu)
            guard handles.count <= maximum else { return core.begin(.failed(.tooManyHandles(count: handles.count, maximum: maximum))) }
            switch handles.count {
            case 0:
                return core.begin(.done([]))
            case 1:
                values = [[]]
                incomplete = [0]
                let first = completeNext()
                return core.begin(first)
            default:
                return core.begin(.request(.readMultipleVariableRequest(ReadMultipleVariableRequest(setOfHandles: ATTHandleList(handles)))))
            }
        }

        mutating func advance(_ pdu: ATTPDU) -> Step {
            if var read = completion {
                let step = read.receive(pdu)
                completion = read
                switch step {
                case let .request(request): return .request(request)
                case let .failed(error): return .failed(error)
                case let .done(rest):
                    values[incomplete.removeFirst()] += rest
                    return completeNext()
                }
            }
            switch pdu {
            case let .readMultipleVariableResponse(response):
                let tuples = Array(response.lengthValueTupleList)
                guard tuples.count <= handles.count else {
                    return .failed(.malformedResponse(.tooManyValues(
                        ReadMultipleVariableResponse.opcode, expected: handles.count, found: tuples.count)))
                }
                values = tuples.map { Array($0.value) } + Array(repeating: [], count: handles.count - tuples.count)
                incomplete = tuples.indices.filter { tuples[$0].isTruncated } + Array(tuples.count..<handles.count)
                return completeNext()
            case let .errorResponse(error):
                return .failed(.attribute(error))
            default:
                return .failed(.unexpectedResponse(pdu.opcode, request: nil))
            }
        }

        /// Starts reading the rest of the next incomplete value, or finishes.
        private mutating func completeNext() -> Step {
            guard let index = incomplete.first else {
                completion = nil
                return .done(values)
            }
            var read = ReadLongCharacteristicValues(handle: handles[index], offset: UInt16(values[index].count), mtu: mtu)
            let step = read.start()
            completion = read
            switch step {
            case let .request(request): return .request(request)
            case let .failed(error): return .failed(error)
            case let .done(rest):
                // Read Long always starts with a request; were it done, nothing is left.
                values[incomplete.removeFirst()] += rest
                return completeNext()
            }
        }
    }
}
