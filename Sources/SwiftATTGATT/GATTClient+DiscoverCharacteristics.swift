import SwiftATTPDU
import SwiftATTCore

extension GATTClient {
    /// Discover All Characteristics of a Service (Core 5.4 Vol 3 Part G §4.6.1) or, given
    /// a UUID, Discover Characteristics by UUID (§4.6.2).
    ///
    /// Read By Type Requests for «Characteristic» over the service's handles, each
    /// continuing after the last declaration found, until Attribute Not Found or the
    /// service's end. Each declaration (§3.3.1) gives the properties, the value handle
    /// and the UUID; a characteristic ends before the next declaration, the last one at
    /// the service's end. By UUID, every declaration is still read (the end handles need
    /// them) and only the matching characteristics are returned.
    public struct DiscoverCharacteristics: GATTProcedure, GATTCoreProcedure {
        public typealias Output = [Characteristic]

        public let mtu: Int
        /// The service's handles.
        public let range: ClosedRange<UInt16>
        /// `nil`: every characteristic.
        public let uuid: BluetoothUUID?

        var core: GATTProcedureCore<Output>
        var cursor: GATTProcedureCursor
        /// Declarations so far, end handles not yet known.
        var declarations: [Characteristic] = []

        /// Where a characteristic declaration's value holds its fields (Part G §3.3.1).
        enum DeclarationField {
            static let properties = 0
            static let valueHandle = 1..<3
            /// A 16-bit UUID (two octets) or a 128-bit one (sixteen), to the end.
            static let uuid = 3...
            /// The value's length with either UUID.
            static let lengths = [uuid.lowerBound + 2, uuid.lowerBound + 16]
        }

        /// A procedure finding the characteristics in `range`, of type `uuid` when given.
        public init(range: ClosedRange<UInt16>, uuid: BluetoothUUID? = nil, mtu: Int) {
            self.mtu = GATTClient.clamp(mtu)
            self.range = range
            self.uuid = uuid
            cursor = GATTProcedureCursor(range: range)
            core = GATTProcedureCore(roundTripLimit: range.count + 1)
        }

        /// A procedure finding `service`'s characteristics, of type `uuid` when given.
        public init(service: Service, uuid: BluetoothUUID? = nil, mtu: Int) {
            self.init(range: service.handles, uuid: uuid, mtu: mtu)
        }

        public mutating func start() -> Step {
            guard range.lowerBound != 0 else { return core.begin(.failed(.invalidHandleRange(range))) }
            return core.begin(request())
        }

        private func request() -> Step {
            .request(.readByTypeRequest(ReadByTypeRequest(
                startingHandle: cursor.start, endingHandle: range.upperBound, attributeType: GATTAttributeType.characteristic)))
        }

        mutating func advance(_ pdu: ATTPDU) -> Step {
            switch pdu {
            case let .errorResponse(error) where error.errorCode == .attributeNotFound:
                return finish()
            case let .errorResponse(error):
                return .failed(.attribute(error))
            case let .readByTypeResponse(response):
                let opcode = ReadByTypeResponse.opcode
                let list = response.attributeDataList
                guard !list.isEmpty else { return .failed(.malformedResponse(.emptyList(opcode))) }
                for entry in list {
                    if let error = cursor.accept(opcode, handle: entry.handle) { return .failed(error) }
                    let value = entry.value
                    guard DeclarationField.lengths.contains(value.count),
                          let uuid = BluetoothUUID(littleEndianBytes: value.bytes(at: DeclarationField.uuid)) else {
                        return .failed(.malformedResponse(.invalidValueLength(
                            opcode, handle: entry.handle, length: value.count, expected: DeclarationField.lengths)))
                    }
                    let valueHandle = value.littleEndianUInt16(at: DeclarationField.valueHandle)
                    // The value follows its declaration (§3.3.2) inside the service, and the
                    // next declaration comes after it.
                    if let error = cursor.accept(opcode, handle: valueHandle) { return .failed(error) }
                    declarations.append(Characteristic(
                        uuid: uuid, declarationHandle: entry.handle, valueHandle: valueHandle,
                        endHandle: valueHandle, properties: GATTCharacteristic.Properties(rawValue: value.byte(at: DeclarationField.properties))))
                }
                return cursor.isExhausted ? finish() : request()
            default:
                return .failed(.unexpectedResponse(pdu.opcode, request: nil))
            }
        }

        /// Derives the end handles and applies the UUID filter.
        private func finish() -> Step {
            var all = declarations
            for i in all.indices {
                all[i].endHandle = i + 1 < all.count ? all[i + 1].declarationHandle - 1 : range.upperBound
            }
            guard let uuid else { return .done(all) }
            return .done(all.filter { $0.uuid == uuid })
        }
    }
}
