import SwiftATTPDU
import SwiftATTCore

extension GATTClient {
    /// Read Using Characteristic UUID (Core 5.4 Vol 3 Part G §4.8.2): the values of every
    /// characteristic of a type in a range, when their handles are not known.
    ///
    /// Read By Type Requests for the UUID over the range, each continuing after the last
    /// handle returned (as Bumble does), until Attribute Not Found or the range's
    /// end; an empty list when nothing matches. A server cuts each value to
    /// min(ATT_MTU−4, 253) octets (Part F §3.4.4.2): read a value that long again with
    /// `ReadLongCharacteristicValues` at its handle for the rest. An error other than
    /// Attribute Not Found (Read Not Permitted, Insufficient Authentication, …) fails the
    /// procedure, even after some values were read.
    public struct ReadUsingCharacteristicUUID: GATTProcedure, GATTCoreProcedure {
        public typealias Output = [HandleValue]

        public let mtu: Int
        /// The characteristic type read.
        public let uuid: BluetoothUUID
        /// The handles searched.
        public let range: ClosedRange<UInt16>

        var core: GATTProcedureCore<Output>
        var cursor: GATTProcedureCursor
        var found: [HandleValue] = []

        /// A procedure reading every value of type `uuid` in `range`.
        public init(uuid: BluetoothUUID, range: ClosedRange<UInt16> = 0x0001...0xFFFF, mtu: Int) {
            self.mtu = GATTClient.clamp(mtu)
            self.uuid = uuid
            self.range = range
            cursor = GATTProcedureCursor(range: range)
            core = GATTProcedureCore(roundTripLimit: range.count + 1)
        }

        public mutating func start() -> Step {
            guard range.lowerBound != 0 else { return core.begin(.failed(.invalidHandleRange(range))) }
            return core.begin(request())
        }

        private func request() -> Step {
            .request(.readByTypeRequest(ReadByTypeRequest(
                startingHandle: cursor.start, endingHandle: range.upperBound, attributeType: GATTClient.wireForm(uuid))))
        }

        mutating func advance(_ pdu: ATTPDU) -> Step {
            switch pdu {
            case let .errorResponse(error) where error.errorCode == .attributeNotFound:
                return .done(found)
            case let .errorResponse(error):
                return .failed(.attribute(error))
            case let .readByTypeResponse(response):
                let opcode = ReadByTypeResponse.opcode
                let list = response.attributeDataList
                guard !list.isEmpty else { return .failed(.malformedResponse(.emptyList(opcode))) }
                for entry in list {
                    if let error = cursor.accept(opcode, handle: entry.handle) { return .failed(error) }
                    found.append(HandleValue(handle: entry.handle, value: Array(entry.value)))
                }
                return cursor.isExhausted ? .done(found) : request()
            default:
                return .failed(.unexpectedResponse(pdu.opcode, request: nil))
            }
        }
    }
}
