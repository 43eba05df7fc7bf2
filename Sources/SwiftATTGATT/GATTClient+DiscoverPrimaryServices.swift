import SwiftATTPDU
import SwiftATTCore

extension GATTClient {
    /// Discover All Primary Services (Core 5.4 Vol 3 Part G §4.4.1) or, given a UUID,
    /// Discover Primary Service by Service UUID (§4.4.2).
    ///
    /// All: Read By Group Type Requests for «Primary Service» over the range, each
    /// continuing after the last group's end handle. By UUID: Find By Type Value Requests
    /// for «Primary Service» with the UUID's wire form as the value, continuing after the
    /// last found group's end. Either finishes at Attribute Not Found or when a group
    /// ends at (or past) the range's end. Services come back in handle order.
    ///
    /// A service whose declaration lies in `range` is found even when it ends past it;
    /// ranges other than the whole database serve rediscovery after Service Changed.
    public struct DiscoverPrimaryServices: GATTProcedure, GATTCoreProcedure {
        public typealias Output = [Service]

        public let mtu: Int
        /// `nil`: every primary service.
        public let uuid: BluetoothUUID?
        /// The handles searched.
        public let range: ClosedRange<UInt16>

        var core: GATTProcedureCore<Output>
        var cursor: GATTProcedureCursor
        var found: [Service] = []

        /// A procedure finding the primary services in `range`, only those of type `uuid` when
        /// given.
        public init(uuid: BluetoothUUID? = nil, range: ClosedRange<UInt16> = 0x0001...0xFFFF, mtu: Int) {
            self.mtu = GATTClient.clamp(mtu)
            self.uuid = uuid
            self.range = range
            cursor = GATTProcedureCursor(range: range)
            // Every answer moves the cursor past a group, so at most one request per handle
            // and the final Attribute Not Found.
            core = GATTProcedureCore(roundTripLimit: range.count + 1)
        }

        public mutating func start() -> Step {
            guard range.lowerBound != 0 else { return core.begin(.failed(.invalidHandleRange(range))) }
            return core.begin(request())
        }

        private func request() -> Step {
            let primary = GATTAttributeType.primaryService
            guard let uuid else {
                return .request(.readByGroupTypeRequest(ReadByGroupTypeRequest(
                    startingHandle: cursor.start, endingHandle: range.upperBound, attributeGroupType: primary)))
            }
            return .request(.findByTypeValueRequest(FindByTypeValueRequest(
                startingHandle: cursor.start, endingHandle: range.upperBound,
                attributeType: 0x2800, attributeValue: GATTClient.wireForm(uuid).encoded()[...])))
        }

        mutating func advance(_ pdu: ATTPDU) -> Step {
            switch pdu {
            case let .errorResponse(error) where error.errorCode == .attributeNotFound:
                return .done(found)
            case let .errorResponse(error):
                return .failed(.attribute(error))
            case let .readByGroupTypeResponse(response):
                let opcode = ReadByGroupTypeResponse.opcode
                let list = response.attributeDataList
                guard !list.isEmpty else { return .failed(.malformedResponse(.emptyList(opcode))) }
                for entry in list {
                    let length = entry.value.count
                    guard let uuid = BluetoothUUID(littleEndianBytes: entry.value), length != 4 else {
                        return .failed(.malformedResponse(.invalidValueLength(
                            opcode, handle: entry.attributeHandle, length: length, expected: [2, 16])))
                    }
                    if let error = cursor.accept(opcode, handle: entry.attributeHandle, through: entry.endGroupHandle) {
                        return .failed(error)
                    }
                    found.append(Service(uuid: uuid, handles: entry.attributeHandle...entry.endGroupHandle))
                }
                return proceed()
            case let .findByTypeValueResponse(response):
                // Only asked for by UUID.
                guard let uuid else { return .failed(.unexpectedResponse(pdu.opcode, request: .readByGroupTypeRequest)) }
                let opcode = FindByTypeValueResponse.opcode
                let list = response.handlesInformationList
                guard !list.isEmpty else { return .failed(.malformedResponse(.emptyList(opcode))) }
                for entry in list {
                    if let error = cursor.accept(opcode, handle: entry.foundAttributeHandle, through: entry.groupEndHandle) {
                        return .failed(error)
                    }
                    found.append(Service(uuid: uuid, handles: entry.foundAttributeHandle...entry.groupEndHandle))
                }
                return proceed()
            default:
                return .failed(.unexpectedResponse(pdu.opcode, request: nil))
            }
        }

        private func proceed() -> Step {
            cursor.isExhausted ? .done(found) : request()
        }
    }
}
