import SwiftATTPDU

extension GATTClient {
    /// Write Long Characteristic Values (Core 5.4 Vol 3 Part G §4.9.4), and Write Long
    /// Characteristic Descriptors (§4.12.4), the same requests at a descriptor's handle.
    ///
    /// Prepare Write Requests with parts of at most ATT_MTU−5 octets, in order from
    /// `offset`, then an Execute Write Request (write). Each echo must name the part's
    /// handle and offset. On an Error Response to a Prepare Write, or a wrong echo, the
    /// client sends Execute Write (cancel) so the server drops the parts, then fails with
    /// that error. The value may be up to 512 octets less `offset` (Part F §3.2.9).
    public struct WriteLongCharacteristicValues: GATTProcedure, GATTCoreProcedure {
        public typealias Output = Void

        public let mtu: Int
        /// The value's handle.
        public let handle: UInt16
        /// The bytes to write.
        public let value: [UInt8]
        /// Where the value goes within the attribute's value.
        public let offset: UInt16

        var core: GATTProcedureCore<Output>
        var writes: GATTProcedurePreparedWrites

        /// A procedure writing `value` at `offset` of the value at `handle`, in prepared parts.
        public init(handle: UInt16, value: [UInt8], offset: UInt16 = 0, mtu: Int) {
            self.mtu = GATTClient.clamp(mtu)
            self.handle = handle
            self.value = value
            self.offset = offset
            writes = GATTProcedurePreparedWrites([(handle, value, offset)], reliable: false, mtu: self.mtu)
            core = GATTProcedureCore(roundTripLimit: writes.roundTrips)
        }

        /// Prepare Write Requests the procedure sends before Execute Write.
        public var prepareWriteCount: Int { writes.parts.count }

        public mutating func start() -> Step {
            core.begin(writes.start())
        }

        mutating func advance(_ pdu: ATTPDU) -> Step { writes.advance(pdu, done: ()) }
    }

    /// Write Long Characteristic Descriptors (§4.12.4): the same requests at the
    /// descriptor's handle.
    public typealias WriteLongCharacteristicDescriptor = WriteLongCharacteristicValues
}
