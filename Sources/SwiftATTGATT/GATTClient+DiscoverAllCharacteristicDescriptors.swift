import SwiftATTPDU
import SwiftATTCore

extension GATTClient {
    /// Discover All Characteristic Descriptors (Core 5.4 Vol 3 Part G §4.7.1).
    ///
    /// Find Information Requests from the handle after the characteristic's value to its
    /// end handle, each continuing after the last handle found, until Attribute Not Found
    /// or the end. A characteristic whose value is its last attribute has no descriptors:
    /// the procedure finishes at `start()` without a request.
    public struct DiscoverAllCharacteristicDescriptors: GATTProcedure, GATTCoreProcedure {
        public typealias Output = [Descriptor]

        public let mtu: Int
        /// The handles searched; `nil` when there are none.
        public let range: ClosedRange<UInt16>?

        var core: GATTProcedureCore<Output>
        var cursor: GATTProcedureCursor?
        var found: [Descriptor] = []

        /// Searches `range` (a characteristic's handles after its value).
        public init(range: ClosedRange<UInt16>?, mtu: Int) {
            self.mtu = GATTClient.clamp(mtu)
            self.range = range
            cursor = range.map(GATTProcedureCursor.init(range:))
            core = GATTProcedureCore(roundTripLimit: (range?.count ?? 0) + 1)
        }

        /// A procedure finding `characteristic`'s descriptors.
        public init(characteristic: Characteristic, mtu: Int) {
            self.init(range: characteristic.descriptorHandles, mtu: mtu)
        }

        public mutating func start() -> Step {
            guard let range else { return core.begin(.done([])) }
            guard range.lowerBound != 0 else { return core.begin(.failed(.invalidHandleRange(range))) }
            return core.begin(request())
        }

        private func request() -> Step {
            guard let cursor else { return .done(found) }
            return .request(.findInformationRequest(FindInformationRequest(
                startingHandle: cursor.start, endingHandle: cursor.range.upperBound)))
        }

        mutating func advance(_ pdu: ATTPDU) -> Step {
            switch pdu {
            case let .errorResponse(error) where error.errorCode == .attributeNotFound:
                return .done(found)
            case let .errorResponse(error):
                return .failed(.attribute(error))
            case let .findInformationResponse(response):
                let opcode = FindInformationResponse.opcode
                let list = response.informationData
                guard !list.isEmpty, cursor != nil else { return .failed(.malformedResponse(.emptyList(opcode))) }
                for entry in list {
                    if let error = cursor?.accept(opcode, handle: entry.handle) { return .failed(error) }
                    found.append(Descriptor(handle: entry.handle, uuid: entry.uuid))
                }
                return cursor?.isExhausted == false ? request() : .done(found)
            default:
                return .failed(.unexpectedResponse(pdu.opcode, request: nil))
            }
        }
    }
}
