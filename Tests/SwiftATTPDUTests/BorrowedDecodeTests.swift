import SwiftATTPDU
import HeapProbe
import Testing
import TestSupport

/// The borrowed decode (`ATTPDU.Borrowed(parsing:)` from a `Span`) against the slice
/// decoder: on every input, the same PDU (the borrowed one's `owned(in:)` equals the
/// slice decoder's, so every field and every range agrees) or the same typed error.
/// Inputs: the golden vectors, every malformed vector, every ATT PDU of the captures,
/// every truncation and one-byte extension of the golden vectors, and a seeded fuzz of
/// random and mutated PDUs. Then hand-worked vectors for what only the borrowed API
/// has (ranges, entry readers, the tuple cursor), and its zero allocations.
@Suite("Borrowed decode")
struct BorrowedDecodeTests {
    static func borrowed(_ bytes: ArraySlice<UInt8>) -> Result<ATTPDU.Borrowed, ATTDecodingError> {
        Result { () throws(ATTDecodingError) in try ATTPDU.Borrowed(parsing: bytes.span) }
    }

    static func sliced(_ bytes: ArraySlice<UInt8>) -> Result<ATTPDU, ATTDecodingError> {
        Result { () throws(ATTDecodingError) in try ATTPDU(parsing: bytes) }
    }

    /// What the two decoders disagree on for `bytes`, or nil when they agree.
    static func disagreement(_ bytes: ArraySlice<UInt8>) -> String? {
        switch (borrowed(bytes), sliced(bytes)) {
        case let (.success(b), .success(s)):
            let owned = b.owned(in: bytes)
            if owned != s { return "borrowed \(b) is \(owned), the slice decoder's is \(s)" }
            if b.opcode != s.opcode { return "opcode \(b.opcode), the slice decoder's \(s.opcode)" }
            return entryDisagreement(b, in: bytes, owned: s)
        case let (.failure(b), .failure(s)):
            return b == s ? nil : "borrowed throws \(b), the slice decoder \(s)"
        case let (.success(b), .failure(s)):
            return "borrowed decodes \(b), the slice decoder throws \(s)"
        case let (.failure(b), .success(s)):
            return "borrowed throws \(b), the slice decoder decodes \(s)"
        }
    }

    /// The borrowed entry readers (`attributeData(at:in:)`, the tuple cursor, …) against
    /// the slice decoder's lists, entry by entry.
    static func entryDisagreement(_ b: ATTPDU.Borrowed, in bytes: ArraySlice<UInt8>, owned: ATTPDU) -> String? {
        let span = bytes.span
        func value(_ r: Range<Int>) -> [UInt8] { Array(bytes.bytes(at: r)) }
        switch (b, owned) {
        case let (.readByTypeResponse(b), .readByTypeResponse(o)):
            guard b.count == o.attributeDataList.count, b.length == o.length else { return "Read By Type Response count" }
            for (i, e) in o.attributeDataList.enumerated() {
                let be = b.attributeData(at: i, in: span)
                if be.handle != e.handle || value(be.value) != Array(e.value) { return "Read By Type Response entry \(i)" }
            }
        case let (.readByGroupTypeResponse(b), .readByGroupTypeResponse(o)):
            guard b.count == o.attributeDataList.count, b.length == o.length else { return "Read By Group Type Response count" }
            for (i, e) in o.attributeDataList.enumerated() {
                let be = b.attributeData(at: i, in: span)
                if be.attributeHandle != e.attributeHandle || be.endGroupHandle != e.endGroupHandle
                    || value(be.value) != Array(e.value) { return "Read By Group Type Response entry \(i)" }
            }
        case let (.findInformationResponse(b), .findInformationResponse(o)):
            guard b.count == o.informationData.count, b.format == o.format else { return "Find Information Response count" }
            for (i, e) in o.informationData.enumerated() where b.information(at: i, in: span) != e {
                return "Find Information Response entry \(i)"
            }
        case let (.findByTypeValueResponse(b), .findByTypeValueResponse(o)):
            guard b.count == o.handlesInformationList.count else { return "Find By Type Value Response count" }
            for (i, e) in o.handlesInformationList.enumerated() where b.handlesInformation(at: i, in: span) != e {
                return "Find By Type Value Response entry \(i)"
            }
        case let (.readMultipleRequest(b), .readMultipleRequest(o)):
            if (0..<b.count).map({ b.handle(at: $0, in: span) }) != Array(o.setOfHandles) { return "Read Multiple Request handles" }
        case let (.readMultipleVariableRequest(b), .readMultipleVariableRequest(o)):
            if (0..<b.count).map({ b.handle(at: $0, in: span) }) != Array(o.setOfHandles) { return "Read Multiple Variable Request handles" }
        case let (.multipleHandleValueNotification(b), .multipleHandleValueNotification(o)):
            return tupleDisagreement(b.handleLengthValueTupleList, in: bytes, owned: o.handleLengthValueTupleList)
        case let (.readMultipleVariableResponse(b), .readMultipleVariableResponse(o)):
            return tupleDisagreement(b.lengthValueTupleList, in: bytes, owned: o.lengthValueTupleList)
        case let (.signedWriteCommand(b), .signedWriteCommand(o)):
            if value(b.value) != Array(o.value) || value(b.authenticationSignature) != Array(o.authenticationSignature)
                || b.signCounter(in: span) != o.signCounter { return "Signed Write Command value or signature" }
        default:
            break
        }
        return nil
    }

    static func tupleDisagreement(_ b: ATTTupleList.Borrowed, in bytes: ArraySlice<UInt8>, owned: ATTTupleList) -> String? {
        var cursor = b.cursor
        var read: [ATTTupleList.Tuple] = []
        while let t = cursor.next(in: bytes.span) {
            read.append(ATTTupleList.Tuple(handle: t.handle, value: bytes.bytes(at: t.value), declaredLength: t.declaredLength))
            if t.isTruncated != (t.value.count < t.declaredLength) { return "tuple truncation" }
        }
        return read == Array(owned) ? nil : "tuples \(read), the slice decoder's \(Array(owned))"
    }

    static func expectAgreement(_ bytes: [UInt8], _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if let d = disagreement(bytes[...]) {
            Issue.record("\(what) (\(Hex.encode(bytes))): \(d)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Equivalence with the slice decoder

    @Test("every golden vector decodes to the slice decoder's PDU", arguments: GoldenVector.all)
    func goldenVectors(_ v: GoldenVector) throws {
        let bytes = v.bytes
        Self.expectAgreement(bytes, v.name)
        let pdu = try ATTPDU.Borrowed(parsing: bytes.span)
        #expect(pdu.opcode.rawValue == v.opcode)
        #expect(pdu.owned(in: bytes[...]).encoded() == bytes)
        // A span of a slice in the middle of a larger buffer: ranges count from its start.
        let buffer: [UInt8] = [0xEE, 0xEE, 0xEE] + bytes + [0xEE, 0xEE]
        let slice = buffer[3..<(3 + bytes.count)]
        #expect(try ATTPDU.Borrowed(parsing: slice.span) == pdu)
        #expect(Self.disagreement(slice) == nil)
    }

    @Test("every malformed vector throws the listed error", arguments: MalformedVector.all)
    func malformedVectors(_ v: MalformedVector) throws {
        let expected = try #require(v.expectedError)
        #expect(Self.borrowed(v.bytes[...]) == .failure(expected), "\(v.name)")
        Self.expectAgreement(v.bytes, v.name)
    }

    @Test("every ATT PDU of the captures decodes as the slice decoder decodes it")
    func capturedPDUs() throws {
        let files = FixtureFiles.names(in: "captures", endingWith: ".att.json")
        #expect(files.count >= 4)
        var checked = 0
        for file in files {
            for record in try FixtureFiles.records("captures/" + file) {
                let hex = try #require(record["pdu"] as? String, "\(file): a record without its PDU")
                Self.expectAgreement(try Hex.decode(hex), "\(file) frame \(record["frame"] ?? "?")")
                checked += 1
            }
        }
        #expect(checked > 100, "the captures hold \(checked) PDUs")
    }

    @Test("every truncation and one-byte extension agrees", arguments: GoldenVector.all)
    func truncationsAndExtensions(_ v: GoldenVector) {
        let bytes = v.bytes
        for k in 0..<bytes.count { Self.expectAgreement(Array(bytes.prefix(k)), "\(v.name) cut to \(k)") }
        for b in UInt8.min...UInt8.max { Self.expectAgreement(bytes + [b], "\(v.name) + \(b)") }
    }

    @Test("200 000 seeded random and mutated inputs: the same PDU or the same error")
    func seededFuzz() {
        var rng = SplitMix64(seed: 0x5EED_0A77_0000_0022)
        let golden = GoldenVector.all.map(\.bytes)
        var failures: [String] = []
        var successes = 0
        var decoded = Set<UInt8>()
        for _ in 0..<200_000 {
            let input = MalformedInputTests.fuzzInput(&rng, golden: golden)
            if let d = Self.disagreement(input[...]) {
                if failures.count < 10 { failures.append("\(Hex.encode(input)): \(d)") }
            } else if case let .success(pdu) = Self.borrowed(input[...]) {
                successes += 1
                decoded.insert(pdu.opcode.rawValue)
            }
        }
        #expect(failures.isEmpty, "\(failures)")
        #expect(successes > 20_000, "the fuzz reaches the success paths (\(successes))")
        #expect(decoded == Set(ATTOpcode.allDefined.map(\.rawValue)), "every PDU type decoded at least once")
    }

    @Test("each PDU type's own borrowed parser agrees with the dispatching one", arguments: GoldenVector.all)
    func concreteParsers(_ v: GoldenVector) throws {
        let bytes = v.bytes
        let span = bytes.span
        let pdu = try ATTPDU.Borrowed(parsing: span)
        // One line per shape; the rest go through the same shapes' code.
        switch pdu {
        case let .handleValueNotification(n): #expect(try HandleValueNotification.Borrowed(parsing: span) == n)
        case let .readByTypeResponse(r): #expect(try ReadByTypeResponse.Borrowed(parsing: span) == r)
        case let .errorResponse(e): #expect(try ErrorResponse(parsing: span) == e)
        case let .readRequest(r): #expect(try ReadRequest(parsing: span) == r)
        case let .writeResponse(r): #expect(try WriteResponse(parsing: span) == r)
        case let .readResponse(r): #expect(try ReadResponse.Borrowed(parsing: span) == r)
        case let .prepareWriteRequest(r): #expect(try PrepareWriteRequest.Borrowed(parsing: span) == r)
        case let .readMultipleRequest(r): #expect(try ReadMultipleRequest.Borrowed(parsing: span) == r)
        case let .readByTypeRequest(r): #expect(try ReadByTypeRequest(parsing: span) == r)
        default: break
        }
        // Another PDU type's parser refuses the bytes with the slice decoder's error.
        let other: UInt8 = v.opcode == 0x1B ? 0x12 : 0x1B
        #expect(throws: ATTDecodingError.opcodeMismatch(expected: ATTOpcode(other), found: ATTOpcode(v.opcode))) {
            if other == 0x1B { _ = try HandleValueNotification.Borrowed(parsing: span) } else { _ = try WriteRequest.Borrowed(parsing: span) }
        }
    }

    // MARK: Hand-worked vectors for the borrowed API

    @Test("a notification's value is the range after the handle (§3.4.7.1)")
    func notification() throws {
        let bytes: [UInt8] = [0x1B, 0x14, 0x00, 0x01, 0x02, 0x03]
        let span = bytes.span
        guard case let .handleValueNotification(n) = try ATTPDU.Borrowed(parsing: span) else {
            Issue.record("not a notification"); return
        }
        #expect(n.handle == 0x0014)
        #expect(n.value == 3..<6)
        let value = span.extracting(n.value)
        #expect(value.count == 3 && value[0] == 0x01 && value[2] == 0x03)
        #expect(n.owned(in: bytes[...]) == HandleValueNotification(handle: 0x0014, value: [1, 2, 3]))
    }

    @Test("Read By Type Response entries are read from the span (§3.4.4.2)")
    func readByTypeResponse() throws {
        // Length 7: handle 0x0010, properties 0x12, value handle 0x0011, UUID 0x2A37; twice.
        let bytes: [UInt8] = [0x09, 0x07, 0x10, 0x00, 0x12, 0x11, 0x00, 0x37, 0x2A, 0x13, 0x00, 0x02, 0x14, 0x00, 0x38, 0x2A]
        let r = try ReadByTypeResponse.Borrowed(parsing: bytes.span)
        #expect(r.entries == 2..<16 && r.length == 7 && r.count == 2)
        #expect(r.entry(at: 1) == 9..<16)
        let second = r.attributeData(at: 1, in: bytes.span)
        #expect(second.handle == 0x0013 && second.value == 11..<16)
        #expect(Array(bytes[second.value]) == [0x02, 0x14, 0x00, 0x38, 0x2A])
    }

    @Test("Read By Group Type, Find Information and Find By Type Value entries (§3.4.4.10, §3.4.3.2, §3.4.3.4)")
    func otherLists() throws {
        let groups: [UInt8] = [0x11, 0x06, 0x01, 0x00, 0x05, 0x00, 0x00, 0x18, 0x06, 0x00, 0x0D, 0x00, 0x01, 0x18]
        let g = try ReadByGroupTypeResponse.Borrowed(parsing: groups.span)
        let second = g.attributeData(at: 1, in: groups.span)
        #expect(g.count == 2 && second.attributeHandle == 6 && second.endGroupHandle == 13 && second.value == 12..<14)

        let info: [UInt8] = [0x05, 0x01, 0x20, 0x00, 0x00, 0x29, 0x21, 0x00, 0x02, 0x29]
        let i = try FindInformationResponse.Borrowed(parsing: info.span)
        #expect(i.format == .uuid16 && i.count == 2)
        #expect(i.information(at: 1, in: info.span) == .init(handle: 0x21, uuid: BluetoothUUID(0x2902)))
        let wide: [UInt8] = [0x05, 0x02, 0x30, 0x00] + (0..<16).map { UInt8($0) }
        let w = try FindInformationResponse.Borrowed(parsing: wide.span)
        #expect(w.format == .uuid128)
        #expect(w.information(at: 0, in: wide.span).uuid == BluetoothUUID(uuid128: 0x0F0E_0D0C_0B0A_0908_0706_0504_0302_0100))

        let found: [UInt8] = [0x07, 0x01, 0x00, 0x05, 0x00, 0x10, 0x00, 0x1F, 0x00]
        let f = try FindByTypeValueResponse.Borrowed(parsing: found.span)
        #expect(f.count == 2 && f.handlesInformation(at: 1, in: found.span) == .init(foundAttributeHandle: 0x10, groupEndHandle: 0x1F))
    }

    @Test("tuples walk with a cursor; the last of a Read Multiple Variable Response may be cut (§3.4.4.12, §3.4.7.4)")
    func tuples() throws {
        let multiple: [UInt8] = [0x23, 0x14, 0x00, 0x02, 0x00, 0xAA, 0xBB, 0x15, 0x00, 0x01, 0x00, 0xCC]
        let m = try MultipleHandleValueNotification.Borrowed(parsing: multiple.span)
        var cursor = m.handleLengthValueTupleList.cursor
        // (Read into locals: a `Span` cannot be an argument inside `#expect`'s expansion.)
        let first = cursor.next(in: multiple.span)
        let second = cursor.next(in: multiple.span)
        let end = cursor.next(in: multiple.span)
        #expect(first?.handle == 0x14 && first?.value == 5..<7 && second?.handle == 0x15 && second?.value == 11..<12)
        #expect(end == nil)

        // Two tuples; the second declares 4 octets and holds 2.
        let variable: [UInt8] = [0x21, 0x01, 0x00, 0x7F, 0x04, 0x00, 0x01, 0x02]
        let v = try ReadMultipleVariableResponse.Borrowed(parsing: variable.span)
        var c = v.lengthValueTupleList.cursor
        let a = c.next(in: variable.span)
        let b = c.next(in: variable.span)
        let after = c.next(in: variable.span)
        #expect(a != nil && a?.handle == nil && a?.value == 3..<4 && a?.isTruncated == false)
        #expect(b?.declaredLength == 4 && b?.value == 6..<8 && b?.isTruncated == true)
        #expect(after == nil)
    }

    @Test("Read Multiple handles, Find By Type Value's value, Signed Write's signature")
    func otherFields() throws {
        let read: [UInt8] = [0x0E, 0x03, 0x00, 0x05, 0x00, 0x07, 0x00]
        let r = try ReadMultipleRequest.Borrowed(parsing: read.span)
        #expect(r.count == 3 && (0..<3).map { r.handle(at: $0, in: read.span) } == [3, 5, 7])

        let find: [UInt8] = [0x06, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28, 0x0D, 0x18]
        let f = try FindByTypeValueRequest.Borrowed(parsing: find.span)
        #expect(f.startingHandle == 1 && f.endingHandle == 0xFFFF && f.attributeType == 0x2800 && f.attributeValue == 7..<9)

        let signature: [UInt8] = [0x01, 0x00, 0x00, 0x00] + [UInt8](repeating: 0x5A, count: 8)
        let signed: [UInt8] = [0xD2, 0x20, 0x00, 0xAB, 0xCD] + signature
        let s = try SignedWriteCommand.Borrowed(parsing: signed.span)
        #expect(s.handle == 0x20 && s.value == 3..<5 && s.authenticationSignature == 5..<17)
        #expect(s.signCounter(in: signed.span) == 1)
    }

    @Test("malformed input throws where it is wrong, never traps")
    func malformed() {
        func error(_ bytes: [UInt8]) -> ATTDecodingError? {
            if case let .failure(e) = Self.borrowed(bytes[...]) { return e }
            return nil
        }
        #expect(error([]) == .empty)
        #expect(error([0xFF]) == .unknownOpcode(ATTOpcode(0xFF)))
        #expect(error([0x1B, 0x14]) == .truncated(.handleValueNotification, need: 3, have: 2))
        #expect(error([0x1B, 0x14, 0x00] + [UInt8](repeating: 0, count: 513)) == .valueTooLong(.handleValueNotification, length: 513))
        #expect(error([0x01, 0x0A, 0x29, 0x00]) == .truncated(.errorResponse, need: 5, have: 4))
        #expect(error([0x02, 0xF7, 0x00, 0x00]) == .invalidLength(.exchangeMTURequest, expected: 3, have: 4))
        #expect(error([0x09, 0x01, 0x10, 0x00]) == .invalidEntryLength(.readByTypeResponse, length: 1, allowed: 2...255))
        #expect(error([0x09, 0x03, 0x10, 0x00]) == .lengthNotMultiple(.readByTypeResponse, dataLength: 2, entryLength: 3))
        #expect(error([0x11, 0x06]) == .tooFewEntries(.readByGroupTypeResponse, count: 0, minimum: 1))
        #expect(error([0x05, 0x03, 0x00, 0x00]) == .invalidFormat(0x03))
        #expect(error([0x08, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28, 0x00]) == .invalidUUIDLength(.readByTypeRequest, byteCount: 3))
        #expect(error([0x0E, 0x03, 0x00]) == .tooFewEntries(.readMultipleRequest, count: 1, minimum: 2))
        #expect(error([0x18, 0x02]) == .invalidExecuteWriteFlags(0x02))
        #expect(error([0xD2, 0x20, 0x00] + [UInt8](repeating: 0, count: 11)) == .truncated(.signedWriteCommand, need: 15, have: 14))
        #expect(error([0x23, 0x14, 0x00, 0x05, 0x00, 0xAA]) == .tupleOverrun(.multipleHandleValueNotification, offset: 1, need: 9, have: 5))
    }

    // MARK: No heap

    @Test("decoding every golden vector 1 000 times keeps no heap memory, allocates none when optimised",
          .enabled(if: heap_probe_is_available() != 0, "needs glibc's allocator, not a sanitizer's"))
    func noAllocations() {
        let vectors = GoldenVector.all.map(\.bytes)
        var opcodes = 0
        // One pass first: the runtime keeps what it makes once per process (metadata,
        // the first thrown error's caches), which is not the decoder's doing.
        for bytes in vectors {
            if let pdu = try? ATTPDU.Borrowed(parsing: bytes.span) { opcodes &+= Int(pdu.opcode.rawValue) }
        }
        let allocations = heap_probe_thread_allocations()
        let frees = heap_probe_thread_frees()
        for _ in 0..<1_000 {
            for bytes in vectors {
                if let pdu = try? ATTPDU.Borrowed(parsing: bytes.span) { opcodes &+= Int(pdu.opcode.rawValue) }
            }
        }
        let allocated = heap_probe_thread_allocations() - allocations
        let freed = heap_probe_thread_frees() - frees
        #expect(opcodes > 0)
        #expect(allocated == freed, "kept \(Int64(bitPattern: allocated &- freed)) heap blocks")
        #if !DEBUG
        #expect(allocated == 0, "allocated \(allocated) times")
        #endif
    }
}
