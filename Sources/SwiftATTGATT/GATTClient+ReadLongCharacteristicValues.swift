import SwiftATTPDU

extension GATTClient {
    /// Read Long Characteristic Values (Core 5.4 Vol 3 Part G §4.8.3), and Read Long
    /// Characteristic Descriptors (§4.12.2), the same requests at a descriptor's handle.
    ///
    /// A Read Request (or, from a non-zero `offset`, a Read Blob Request), then Read Blob
    /// Requests at the octets read so far while each answer is a full ATT_MTU−1 octets.
    /// A shorter (or empty) answer ends the value, as does reaching 512 octets (Part F
    /// §3.2.9); a value past that fails the procedure rather than reading forever.
    /// Attribute Not Long on the first Read Blob means the value was whole after all, and
    /// it is returned; so is what was read when a later Read Blob gets Invalid Offset.
    public struct ReadLongCharacteristicValues: GATTProcedure, GATTCoreProcedure {
        public typealias Output = [UInt8]

        public let mtu: Int
        /// The value's handle.
        public let handle: UInt16
        /// Where the read starts within the value; the result is the value from there.
        public let offset: UInt16

        var core: GATTProcedureCore<Output>
        var value: [UInt8] = []
        /// Read Blob Requests sent so far.
        var blobs = 0

        /// A procedure reading the value at `handle` from `offset` to its end.
        public init(handle: UInt16, offset: UInt16 = 0, mtu: Int) {
            self.mtu = GATTClient.clamp(mtu)
            self.handle = handle
            self.offset = offset
            // Each full answer adds ATT_MTU−1 octets, and 512 ends it: the reads that reach
            // 512, one that crosses it or comes back short, and one to spare.
            core = GATTProcedureCore(roundTripLimit: ATTLimits.maximumAttributeValueLength / (self.mtu - 1) + 3)
        }

        /// Read Blob Requests the procedure has sent (for tests and logs).
        public var readBlobCount: Int { blobs }

        public mutating func start() -> Step {
            guard offset == 0 else { return core.begin(blob()) }
            return core.begin(.request(.readRequest(ReadRequest(handle: handle))))
        }

        private mutating func blob() -> Step {
            blobs += 1
            return .request(.readBlobRequest(ReadBlobRequest(handle: handle, valueOffset: UInt16(Int(offset) + value.count))))
        }

        mutating func advance(_ pdu: ATTPDU) -> Step {
            let part: ArraySlice<UInt8>
            switch pdu {
            case let .readResponse(response): part = response.value
            case let .readBlobResponse(response): part = response.value
            case let .errorResponse(error) where error.errorCode == .attributeNotLong && blobs == 1:
                return .done(value)
            case let .errorResponse(error) where error.errorCode == .invalidOffset && !value.isEmpty:
                // Part F §3.4.4.5 wants an empty answer at exactly the value's end; some
                // servers send Invalid Offset there instead (Bumble's client allows it too).
                return .done(value)
            case let .errorResponse(error):
                return .failed(.attribute(error))
            default:
                return .failed(.unexpectedResponse(pdu.opcode, request: nil))
            }
            value += part
            let total = Int(offset) + value.count
            // An empty answer past 512 (a caller's offset beyond any value) is just the end.
            guard total <= ATTLimits.maximumAttributeValueLength || part.isEmpty else {
                return .failed(.malformedResponse(.valueExceedsLimit(handle: handle, length: total)))
            }
            // No value is longer than 512 octets: a full answer reaching it is the end.
            return part.count < mtu - 1 || total == ATTLimits.maximumAttributeValueLength ? .done(value) : blob()
        }
    }

    /// Read Long Characteristic Descriptors (§4.12.2): the same requests at the
    /// descriptor's handle.
    public typealias ReadLongCharacteristicDescriptor = ReadLongCharacteristicValues
}
