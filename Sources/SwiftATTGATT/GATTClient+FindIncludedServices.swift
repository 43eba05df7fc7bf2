import SwiftATTPDU
import SwiftATTCore

extension GATTClient {
    /// Find Included Services (Core 5.4 Vol 3 Part G §4.5.1): the include declarations of
    /// one service.
    ///
    /// Read By Type Requests for «Include» over the service's handles, each continuing
    /// after the last declaration found, until Attribute Not Found or the service's end.
    /// An include declaration carries the included service's UUID only when it is 16
    /// bits (§3.2); for a 128-bit one the client reads the included service's declaration
    /// (a Read Request at its first handle) before it continues.
    public struct FindIncludedServices: GATTProcedure, GATTCoreProcedure {
        public typealias Output = [IncludedService]

        public let mtu: Int
        /// The including service's handles.
        public let range: ClosedRange<UInt16>

        /// An include declaration whose UUID is still to be read.
        struct Pending: Sendable {
            let declarationHandle: UInt16
            let handles: ClosedRange<UInt16>
        }

        var core: GATTProcedureCore<Output>
        var cursor: GATTProcedureCursor
        var found: [IncludedService] = []
        /// 128-bit includes of the last answer, in handle order, read one at a time.
        var pending: [Pending] = []

        /// Where an include declaration's value holds its fields (Part G §3.2).
        enum DeclarationField {
            static let includedServiceHandle = 0..<2
            static let endGroupHandle = 2..<4
            /// Present only when the included service's UUID is 16 bits.
            static let serviceUUID = 4..<6
            /// The value's length without the UUID and with it.
            static let lengths = [endGroupHandle.upperBound, serviceUUID.upperBound]
        }

        /// A procedure finding the include declarations in `range`.
        public init(range: ClosedRange<UInt16>, mtu: Int) {
            self.mtu = GATTClient.clamp(mtu)
            self.range = range
            cursor = GATTProcedureCursor(range: range)
            // One Read By Type per handle at most, one Read per include, one final answer.
            core = GATTProcedureCore(roundTripLimit: 2 * range.count + 1)
        }

        /// A procedure finding the services `service` includes.
        public init(service: Service, mtu: Int) {
            self.init(range: service.handles, mtu: mtu)
        }

        public mutating func start() -> Step {
            guard range.lowerBound != 0 else { return core.begin(.failed(.invalidHandleRange(range))) }
            return core.begin(readByType())
        }

        private func readByType() -> Step {
            .request(.readByTypeRequest(ReadByTypeRequest(
                startingHandle: cursor.start, endingHandle: range.upperBound, attributeType: GATTAttributeType.include)))
        }

        /// Reads the next pending UUID, or continues the search, or finishes.
        private func proceed() -> Step {
            if let first = pending.first {
                return .request(.readRequest(ReadRequest(handle: first.handles.lowerBound)))
            }
            return cursor.isExhausted ? .done(found) : readByType()
        }

        mutating func advance(_ pdu: ATTPDU) -> Step {
            switch pdu {
            case let .errorResponse(error) where error.errorCode == .attributeNotFound && error.requestOpcode == .readByTypeRequest:
                return .done(found)
            case let .errorResponse(error):
                return .failed(.attribute(error))
            case let .readByTypeResponse(response):
                let opcode = ReadByTypeResponse.opcode
                let list = response.attributeDataList
                guard !list.isEmpty else { return .failed(.malformedResponse(.emptyList(opcode))) }
                for entry in list {
                    if let error = cursor.accept(opcode, handle: entry.handle) { return .failed(error) }
                    let value = entry.value
                    guard DeclarationField.lengths.contains(value.count) else {
                        return .failed(.malformedResponse(.invalidValueLength(
                            opcode, handle: entry.handle, length: value.count, expected: DeclarationField.lengths)))
                    }
                    let start = value.littleEndianUInt16(at: DeclarationField.includedServiceHandle)
                    let end = value.littleEndianUInt16(at: DeclarationField.endGroupHandle)
                    guard start != 0, start <= end else {
                        return .failed(.malformedResponse(.invalidGroup(opcode, start: start, end: end)))
                    }
                    if value.count == DeclarationField.serviceUUID.upperBound {
                        let uuid = BluetoothUUID(value.littleEndianUInt16(at: DeclarationField.serviceUUID))
                        found.append(IncludedService(declarationHandle: entry.handle, handles: start...end, uuid: uuid))
                    } else {
                        pending.append(Pending(declarationHandle: entry.handle, handles: start...end))
                    }
                }
                return proceed()
            case let .readResponse(response):
                guard !pending.isEmpty else { return .failed(.unexpectedResponse(pdu.opcode, request: nil)) }
                let include = pending.removeFirst()
                let value = response.value
                guard value.count == 16 || value.count == 2, let uuid = BluetoothUUID(littleEndianBytes: value) else {
                    return .failed(.malformedResponse(.invalidValueLength(
                        ReadResponse.opcode, handle: include.handles.lowerBound, length: value.count, expected: [16])))
                }
                found.append(IncludedService(declarationHandle: include.declarationHandle, handles: include.handles, uuid: uuid))
                return proceed()
            default:
                return .failed(.unexpectedResponse(pdu.opcode, request: nil))
            }
        }
    }
}
