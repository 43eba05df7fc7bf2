import SwiftATTPDU

extension GATTClient {
    /// Read Multiple Variable Length Characteristic Values (Core 5.4 Vol 3 Part G §4.8.5):
    /// several values of any length in one Read Multiple Variable Request.
    ///
    /// Each value comes with its length. The server stops at ATT_MTU−1 octets, cutting
    /// the last value it fits (its length still says how long it is) and leaving out the
    /// rest (Part F §3.4.4.12); the procedure then completes a cut value with Read Blob
    /// (from where it was cut) and asks for the values left out in a further Read
    /// Multiple Variable request (Read Long when one is left), so every value comes back
    /// whole in as few round trips as the server's ATT_MTU allows. One handle is read
    /// with Read Long at once, as the request needs two; none finishes at once. The
    /// request must fit ATT_MTU.
    public struct ReadMultipleVariableLengthCharacteristicValues: GATTProcedure, GATTCoreProcedure {
        public typealias Output = [[UInt8]]

        public let mtu: Int
        /// The values' handles, in order.
        public let handles: [UInt16]

        var core = GATTProcedureCore<Output>(roundTripLimit: .max)
        var values: [[UInt8]] = []
        /// Indices of values cut short, to complete with Read Blob, in order.
        var incomplete: [Int] = []
        /// Indices of values not asked for yet, or left out of a response, in order.
        var pending: [Int] = []
        /// The indices the outstanding Read Multiple Variable request names.
        var requested: [Int] = []
        /// The read completing `incomplete.first`.
        var completion: ReadLongCharacteristicValues?

        /// A procedure reading the values at `handles`.
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
                pending = Array(handles.indices)
                return core.begin(completeNext())
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
                guard tuples.count <= requested.count else {
                    return .failed(.malformedResponse(.tooManyValues(
                        ReadMultipleVariableResponse.opcode, expected: requested.count, found: tuples.count)))
                }
                for (tuple, index) in zip(tuples, requested) {
                    values[index] = Array(tuple.value)
                    if tuple.isTruncated { incomplete.append(index) }
                }
                // Left out: asked for again; a response that carried nothing at all gets
                // them read one by one, so the procedure always moves on.
                let leftOut = Array(requested[tuples.count...])
                if tuples.isEmpty { incomplete += leftOut } else { pending = leftOut + pending }
                requested = []
                return completeNext()
            case let .errorResponse(error):
                return .failed(.attribute(error))
            default:
                return .failed(.unexpectedResponse(pdu.opcode, request: nil))
            }
        }

        /// Completes the next cut value, asks for the values still pending, or finishes.
        private mutating func completeNext() -> Step {
            if values.count != handles.count { values = Array(repeating: [], count: handles.count) }
            if incomplete.isEmpty, pending.count == 1 { incomplete = pending; pending = [] }
            guard let index = incomplete.first else {
                guard pending.isEmpty else {
                    requested = pending
                    pending = []
                    completion = nil
                    let list = ATTHandleList(requested.map { handles[$0] })
                    return .request(.readMultipleVariableRequest(ReadMultipleVariableRequest(setOfHandles: list)))
                }
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
