import SwiftATTPDU

// Writing values: Write Request, Write Command, Prepare Write and Execute Write.
// Core 5.4 Vol 3 Part F §3.4.5–§3.4.6; the procedures are Part G §4.9–§4.12.
//
// Every write goes through the same three steps, so a long write, a reliable write and
// a plain write treat values alike: assemble the new value from the parts (offsets and
// lengths checked), validate it (configuration descriptors, Client Supported Features),
// then commit it (store it, or hand it to the application). Execute Write assembles and
// validates everything queued before it commits anything.
extension GATTServer {
    /// A write being assembled.
    struct PendingWrite {
        let index: Int
        /// Where `bytes` start within the value: 0 for values the server holds (it
        /// starts from their current contents), the first part's offset for dynamic ones.
        var base: Int?
        var bytes: [UInt8]
    }

    func beginWrite(_ index: Int, for id: ConnectionID) -> PendingWrite {
        let state = state(id)
        switch database.attributes[index].storage {
        case let .stored(slot, _, _), let .serverConfiguration(slot):
            return PendingWrite(index: index, base: 0, bytes: values[slot])
        case let .clientConfiguration(valueHandle, _):
            return PendingWrite(index: index, base: 0, bytes: (state.subscriptions[valueHandle] ?? []).encoded)
        case .clientSupportedFeatures:
            return PendingWrite(index: index, base: 0, bytes: state.clientFeatures)
        case let .constant(bytes):
            return PendingWrite(index: index, base: 0, bytes: bytes)
        case .dynamic, .serviceChanged:
            return PendingWrite(index: index, base: nil, bytes: [])
        }
    }

    /// Adds one part at `offset`. Invalid Offset beyond what the value holds so far,
    /// Invalid Attribute Value Length beyond its longest value. A variable-length value
    /// ends after the part (Part F §3.4.5.1: "truncated or lengthened"); a fixed-length
    /// one keeps its other octets.
    func apply(_ write: inout PendingWrite, offset: Int, part: ArraySlice<UInt8>) -> ATTErrorCode? {
        let attribute = database.attributes[write.index]
        let base = write.base ?? offset
        write.base = base
        let relative = offset - base
        guard relative >= 0, relative <= write.bytes.count else { return .invalidOffset }
        var isDynamic = false
        if case .dynamic = attribute.storage { isDynamic = true }
        if let fixed = attribute.fixedLength, !isDynamic {
            guard relative + part.count <= fixed else { return .invalidAttributeValueLength }
            write.bytes.replaceSubrange(relative..<min(relative + part.count, write.bytes.count), with: part)
        } else {
            guard base + relative + part.count <= attribute.maximumLength else { return .invalidAttributeValueLength }
            write.bytes.replaceSubrange(relative..., with: part)
        }
        return nil
    }

    /// Checks an assembled value before anything is written.
    func validate(_ write: PendingWrite, for id: ConnectionID) -> ATTErrorCode? {
        switch database.attributes[write.index].storage {
        case let .clientConfiguration(_, allowed):
            // Part G §3.3.3.3: a bit for a property the characteristic lacks is
            // "improperly configured" (Core Specification Supplement Part B §1.2).
            return allowed.isSuperset(of: Self.configuration(write.bytes)) ? nil : .cccdImproperlyConfigured
        case .clientSupportedFeatures:
            // Part G §7.2: a client shall not clear a bit it has set.
            let old = state(id).clientFeatures
            for (i, bits) in old.enumerated() where bits & ~(i < write.bytes.count ? write.bytes[i] : 0) != 0 {
                return .valueNotAllowed
            }
            return nil
        case .dynamic(_, nil, _), .constant, .serviceChanged:
            return .writeNotPermitted
        case .stored, .dynamic, .serverConfiguration:
            return nil
        }
    }

    /// Writes an assembled, validated value. The application's error, if any, is the
    /// answer; a value the server holds is then left unchanged.
    func commit(_ write: PendingWrite, kind: GATTWriteContext.Kind, for id: ConnectionID) -> ATTErrorCode? {
        let attribute = database.attributes[write.index]
        switch attribute.storage {
        case let .stored(slot, _, onWrite):
            if let onWrite {
                let context = GATTWriteContext(connection: id, handle: attribute.handle, offset: 0, value: write.bytes, kind: kind)
                if let code = onWrite(context) { return code }
            }
            values[slot] = write.bytes
        case let .dynamic(_, handler?, _):
            let context = GATTWriteContext(connection: id, handle: attribute.handle, offset: write.base ?? 0, value: write.bytes, kind: kind)
            return handler(context)
        case let .serverConfiguration(slot):
            // Only bit 0 (Broadcast) is defined; the others are reserved.
            values[slot] = [write.bytes[0] & 0x01, 0x00]
        case let .clientConfiguration(valueHandle, _):
            setSubscription(Self.configuration(write.bytes), to: valueHandle, for: id, cause: .written)
        case .clientSupportedFeatures:
            if connections[id]?.clientFeatures != write.bytes { noteBondedChange(of: id) }
            connections[id]?.clientFeatures = write.bytes
        case .dynamic(_, nil, _), .constant, .serviceChanged:
            return .writeNotPermitted
        }
        return nil
    }

    /// The Notification and Indication bits of a Client Characteristic Configuration
    /// value; reserved bits are ignored.
    static func configuration(_ bytes: [UInt8]) -> GATTClientConfiguration {
        let raw = UInt16(bytes.first ?? 0) | UInt16(bytes.count > 1 ? bytes[1] : 0) << 8
        return GATTClientConfiguration(rawValue: raw).intersection([.notification, .indication])
    }

    /// One whole write (Write Request, Write Command): the answer's error, or `nil`.
    func writeWhole(_ handle: UInt16, _ value: ArraySlice<UInt8>, kind: GATTWriteContext.Kind, from id: ConnectionID,
                    permissionChecked: Bool = false) -> ATTErrorCode? {
        guard let index = database.index(of: handle) else { return .invalidHandle }
        let attribute = database.attributes[index]
        if !permissionChecked, let code = writeError(attribute, state(id)) { return code }
        switch attribute.storage {
        case .clientConfiguration, .serverConfiguration:
            // Both are exactly two octets (Part G §3.3.3.3, §3.3.3.4).
            guard value.count == 2 else { return .invalidAttributeValueLength }
        default:
            break
        }
        var write = beginWrite(index, for: id)
        if let code = apply(&write, offset: 0, part: value) { return code }
        if let code = validate(write, for: id) { return code }
        return commit(write, kind: kind, for: id)
    }

    /// Write Request (§3.4.5.1).
    func write(_ r: WriteRequest, from id: ConnectionID) -> ATTPDU {
        if let code = writeWhole(r.handle, r.value, kind: .request, from: id) {
            return Self.error(.writeRequest, r.handle, code)
        }
        return .writeResponse(WriteResponse())
    }

    /// Write Command (§3.4.5.3): as a Write Request, every error silently dropped.
    func writeCommand(_ c: WriteCommand, from id: ConnectionID) {
        _ = writeWhole(c.handle, c.value, kind: .command, from: id)
    }

    /// Prepare Write (§3.4.6.1): checks the handle and the write permission now, queues
    /// the part, and echoes the request. Offsets and lengths are checked at execution.
    ///
    /// A part longer than ATT_MTU−5 octets (the most §3.4.6.1 allows) gets Invalid PDU
    /// and is not queued: its echo would not fit in ATT_MTU, so the bearer could never
    /// send the response and the transaction would time out with the part queued.
    func prepareWrite(_ r: PrepareWriteRequest, from id: ConnectionID, mtu: Int) -> ATTPDU {
        let op = ATTOpcode.prepareWriteRequest
        guard r.partAttributeValue.count <= mtu - 5 else { return Self.error(op, r.handle, .invalidPDU) }
        guard let index = database.index(of: r.handle) else { return Self.error(op, r.handle, .invalidHandle) }
        let state = state(id)
        if let code = writeError(database.attributes[index], state) { return Self.error(op, r.handle, code) }
        guard state.prepareQueue.count < configuration.prepareQueueLimit,
              state.prepareQueueBytes + r.partAttributeValue.count <= configuration.prepareQueueByteLimit else {
            return Self.error(op, r.handle, .prepareQueueFull)
        }
        connections[id]?.prepareQueue.append(PreparedWrite(handle: r.handle, offset: Int(r.valueOffset), part: Array(r.partAttributeValue)))
        connections[id]?.prepareQueueBytes += r.partAttributeValue.count
        return .prepareWriteResponse(PrepareWriteResponse(handle: r.handle, valueOffset: r.valueOffset, partAttributeValue: r.partAttributeValue))
    }

    /// Execute Write (§3.4.6.3). Cancel discards the queue. Write assembles every queued
    /// part in order, joining parts for the same attribute; the first Invalid Offset or
    /// Invalid Attribute Value Length (or invalid configuration value) answers with its
    /// handle before anything is written. Then the values are written in order of first
    /// appearance; an application's error stops there (the spec leaves the state of the
    /// other attributes undefined). The queue is empty afterwards in every case.
    func executeWrite(_ r: ExecuteWriteRequest, from id: ConnectionID) -> ATTPDU {
        let op = ATTOpcode.executeWriteRequest
        let queue = state(id).prepareQueue
        let outdated = state(id).prepareQueueOutdated
        connections[id]?.prepareQueue = []
        connections[id]?.prepareQueueBytes = 0
        connections[id]?.prepareQueueOutdated = false
        guard r.flags == .writeAll, let first = queue.first else { return .executeWriteResponse(ExecuteWriteResponse()) }
        if outdated { return Self.error(op, first.handle, .databaseOutOfSync) }

        var writes: [PendingWrite] = []
        var position: [UInt16: Int] = [:]
        for entry in queue {
            guard let index = database.index(of: entry.handle) else { return Self.error(op, entry.handle, .invalidHandle) }
            let p: Int
            if let known = position[entry.handle] {
                p = known
            } else {
                writes.append(beginWrite(index, for: id))
                p = writes.count - 1
                position[entry.handle] = p
            }
            if let code = apply(&writes[p], offset: entry.offset, part: entry.part[...]) {
                return Self.error(op, entry.handle, code)
            }
        }
        for w in writes {
            if let code = validate(w, for: id) { return Self.error(op, database.attributes[w.index].handle, code) }
        }
        for w in writes {
            if let code = commit(w, kind: .queued, for: id) { return Self.error(op, database.attributes[w.index].handle, code) }
        }
        return .executeWriteResponse(ExecuteWriteResponse())
    }
}
