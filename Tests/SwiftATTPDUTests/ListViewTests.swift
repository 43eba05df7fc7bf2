import SwiftATTPDU
import Testing

/// ATTEntryList, ATTHandleList and ATTTupleList: lists read in place from a PDU's bytes.
@Suite("List views")
struct ListViewTests {
    /// Whether `view` lies inside `input`'s storage, by index and by address.
    static func isView(_ view: ArraySlice<UInt8>, into input: [UInt8]) -> Bool {
        guard input.indices.contains(view.startIndex) || (view.isEmpty && view.startIndex == input.endIndex)
        else { return false }
        guard view.endIndex <= input.endIndex else { return false }
        return input.withUnsafeBufferPointer { whole in
            view.withUnsafeBufferPointer { part in
                part.baseAddress == whole.baseAddress.map { $0 + view.startIndex }
            }
        }
    }

    // MARK: ATTEntryList

    @Test("Read By Type Response: count, random access, values are views into the input")
    func readByTypeResponseEntries() throws {
        // Three characteristic declarations, 7 bytes each.
        let input = try Hex.decode("0907 0200 02 0300 002a 0400 02 0500 012a 0600 20 0700 052a")
        let pdu = try ReadByTypeResponse(parsing: input)
        let list = pdu.attributeDataList
        #expect(list.count == 3)
        #expect(list.entryLength == 7)
        #expect(pdu.length == 7)
        #expect(list.startIndex == 0 && list.endIndex == 3)
        #expect(list[2].handle == 6)
        #expect(Array(list[2].value) == [0x20, 0x07, 0x00, 0x05, 0x2A])
        #expect(list[0].handle == 2)
        #expect(list.map(\.handle) == [2, 4, 6])
        #expect(list.reversed().map(\.handle) == [6, 4, 2])
        #expect(list.last?.handle == 6)
        #expect(Array(list.indices) == [0, 1, 2])

        for entry in list {
            #expect(Self.isView(entry.value, into: input), "value shares the input's storage")
            #expect(entry.value.count == 5)
        }
        #expect(list[1].value.startIndex == 2 + 7 + 2)
        #expect(Self.isView(list.bytes, into: input))
        #expect(list.bytes.startIndex == 2 && list.bytes.endIndex == input.count)
    }

    @Test("Read By Group Type Response and Find Information Response lists")
    func otherEntryLists() throws {
        let groups = try ReadByGroupTypeResponse(parsing: Hex.decode("11 06 0100 0500 0018 0600 0d00 0118 0e00 1000 0f18"))
        #expect(groups.attributeDataList.count == 3)
        #expect(groups.attributeDataList[1].attributeHandle == 6)
        #expect(groups.attributeDataList[1].endGroupHandle == 13)
        #expect(groups.attributeDataList.map { BluetoothUUID(littleEndianBytes: $0.value) } == [BluetoothUUID(0x1800), BluetoothUUID(0x1801), BluetoothUUID(0x180F)])

        let info16 = try FindInformationResponse(parsing: Hex.decode("05 01 1400 372a 1500 0229"))
        #expect(info16.format == .uuid16)
        #expect(info16.informationData.count == 2)
        #expect(info16.informationData[1].uuid == BluetoothUUID(0x2902))
        #expect(info16.informationData[1].uuid.width == .bits16)

        let info128 = try FindInformationResponse(parsing: Hex.decode("05 02 1500 fb349b5f8000008000100000 02290000"))
        #expect(info128.format == .uuid128)
        #expect(info128.informationData.count == 1)
        #expect(info128.informationData[0].uuid == BluetoothUUID(0x2902), "equal across widths")
        #expect(info128.informationData[0].uuid.width == .bits128, "width kept")

        let found = try FindByTypeValueResponse(parsing: Hex.decode("07 1100 1900 1d00 ffff"))
        #expect(found.handlesInformationList.count == 2)
        #expect(found.handlesInformationList[1].foundAttributeHandle == 0x1D)
        #expect(found.handlesInformationList[1].groupEndHandle == 0xFFFF)
    }

    @Test("building responses from entries")
    func buildingFromEntries() throws {
        let rbt = try ReadByTypeResponse([
            .init(handle: 2, value: [0x02, 0x03, 0x00, 0x00, 0x2A]),
            .init(handle: 4, value: [0x02, 0x05, 0x00, 0x01, 0x2A]),
        ])
        #expect(Hex.encode(rbt.encoded()) == "09070200020300002a0400020500012a")
        #expect(rbt.length == 7)
        #expect(rbt.attributeDataList.count == 2)

        let rbg = try ReadByGroupTypeResponse([.init(attributeHandle: 1, endGroupHandle: 5, value: [0x00, 0x18])])
        #expect(Hex.encode(rbg.encoded()) == "1106010005000018")

        let fbtv = try FindByTypeValueResponse([.init(foundAttributeHandle: 0x11, groupEndHandle: 0x19)])
        #expect(Hex.encode(fbtv.encoded()) == "0711001900")

        let fi16 = try FindInformationResponse([.init(handle: 3, uuid: BluetoothUUID(0x2A00))])
        #expect(fi16.format == .uuid16)
        #expect(Hex.encode(fi16.encoded()) == "05010300002a")

        let nus = try #require(BluetoothUUID("6E400002-B5A3-F393-E0A9-E50E24DCCA9E"))
        let fi128 = try FindInformationResponse([.init(handle: 0x12, uuid: nus)])
        #expect(fi128.format == .uuid128)
        #expect(Hex.encode(fi128.encoded()) == "050212009ecadc240ee5a9e093f3a3b50200406e")

        // The widest value each list allows: a 255-octet entry.
        let widest = try ReadByTypeResponse([.init(handle: 1, value: ArraySlice(repeating: 0xAB, count: 253))])
        let bytes = widest.encoded()
        #expect(bytes.count == 2 + 255)
        #expect(bytes[1] == 0xFF)
        #expect(try ReadByTypeResponse(parsing: bytes) == widest)
        let widestGroup = try ReadByGroupTypeResponse([.init(attributeHandle: 1, endGroupHandle: 2, value: ArraySlice(repeating: 0xAB, count: 251))])
        #expect(widestGroup.encoded()[1] == 0xFF)
    }

    @Test("mixed-length, oversized and empty entry lists are rejected with typed errors")
    func invalidEntryListsRejected() throws {
        #expect(throws: ATTDecodingError.lengthNotMultiple(.readByTypeResponse, dataLength: 7 + 8, entryLength: 7)) {
            try ReadByTypeResponse([.init(handle: 2, value: [1, 2, 3, 4, 5]), .init(handle: 4, value: [1, 2, 3, 4, 5, 6])])
        }
        #expect(throws: ATTDecodingError.lengthNotMultiple(.readByGroupTypeResponse, dataLength: 6 + 20, entryLength: 6)) {
            try ReadByGroupTypeResponse([
                .init(attributeHandle: 1, endGroupHandle: 5, value: [0x00, 0x18]),
                .init(attributeHandle: 6, endGroupHandle: 9, value: ArraySlice(repeating: 0, count: 16)),
            ])
        }
        let nus = try #require(BluetoothUUID("6E400002-B5A3-F393-E0A9-E50E24DCCA9E"))
        #expect(throws: ATTDecodingError.lengthNotMultiple(.findInformationResponse, dataLength: 4 + 18, entryLength: 4)) {
            try FindInformationResponse([.init(handle: 3, uuid: BluetoothUUID(0x2A00)), .init(handle: 4, uuid: nus)])
        }
        #expect(throws: ATTDecodingError.lengthNotMultiple(.findInformationResponse, dataLength: 4 + 6, entryLength: 4)) {
            try FindInformationResponse([.init(handle: 3, uuid: BluetoothUUID(0x2A00)), .init(handle: 4, uuid: BluetoothUUID(uuid32: 0x1234_5678))])
        }
        #expect(throws: ATTDecodingError.invalidUUIDLength(.findInformationResponse, byteCount: 4)) {
            try FindInformationResponse([.init(handle: 3, uuid: BluetoothUUID(uuid32: 0x2A00))])
        }
        #expect(throws: ATTDecodingError.tooFewEntries(.findInformationResponse, count: 0, minimum: 1)) {
            try FindInformationResponse([])
        }
        #expect(throws: ATTDecodingError.tooFewEntries(.readByTypeResponse, count: 0, minimum: 1)) {
            try ReadByTypeResponse([])
        }
        #expect(throws: ATTDecodingError.tooFewEntries(.readByGroupTypeResponse, count: 0, minimum: 1)) {
            try ReadByGroupTypeResponse([])
        }
        #expect(throws: ATTDecodingError.tooFewEntries(.findByTypeValueResponse, count: 0, minimum: 1)) {
            try FindByTypeValueResponse([])
        }
        #expect(throws: ATTDecodingError.invalidEntryLength(.readByTypeResponse, length: 256, allowed: 2...255)) {
            try ReadByTypeResponse([.init(handle: 1, value: ArraySlice(repeating: 0, count: 254))])
        }
        #expect(throws: ATTDecodingError.invalidEntryLength(.readByGroupTypeResponse, length: 256, allowed: 4...255)) {
            try ReadByGroupTypeResponse([.init(attributeHandle: 1, endGroupHandle: 2, value: ArraySlice(repeating: 0, count: 252))])
        }
    }

    // MARK: ATTHandleList

    @Test("handle lists: built from handles, parsed in place")
    func handleLists() throws {
        let built = ATTHandleList([0x0003, 0x001C, 0xFFFF])
        #expect(built.count == 3)
        #expect(Array(built) == [0x0003, 0x001C, 0xFFFF])
        #expect(Array(built.bytes) == [0x03, 0x00, 0x1C, 0x00, 0xFF, 0xFF])

        let input = try Hex.decode("0e 1000 1700 1c00")
        let request = try ReadMultipleRequest(parsing: input)
        #expect(request.setOfHandles.count == 3)
        #expect(request.setOfHandles[1] == 0x17)
        #expect(Array(request.setOfHandles) == [0x10, 0x17, 0x1C])
        #expect(Self.isView(request.setOfHandles.bytes, into: input))
        #expect(ReadMultipleRequest(setOfHandles: ATTHandleList([0x10, 0x17, 0x1C])) == request)

        let variable = try ReadMultipleVariableRequest(parsing: Hex.decode("20 0300 1c00"))
        #expect(Array(variable.setOfHandles) == [3, 0x1C])
    }

    // MARK: ATTTupleList

    @Test("Read Multiple Variable Response: tuples iterate in order, the last may be truncated")
    func readMultipleVariableTuples() throws {
        let input = try Hex.decode("21 0100 5a 0000 0f00 73776966742d617474")
        let pdu = try ReadMultipleVariableResponse(parsing: input)
        let tuples = Array(pdu.lengthValueTupleList)
        #expect(tuples.count == 3)
        #expect(tuples.map(\.declaredLength) == [1, 0, 15])
        #expect(tuples.map(\.value.count) == [1, 0, 9])
        #expect(tuples.map(\.isTruncated) == [false, false, true])
        #expect(tuples.allSatisfy { $0.handle == nil })
        #expect(Array(tuples[0].value) == [0x5A])
        #expect(String(decoding: tuples[2].value, as: UTF8.self) == "swift-att")
        #expect(!pdu.lengthValueTupleList.hasHandles)
        for t in tuples {
            #expect(Self.isView(t.value, into: input), "tuple values share the input's storage")
        }
        #expect(tuples[2].value.startIndex == 1 + 3 + 2 + 2)

        // Built from tuples, a truncated last one included, it is the same bytes.
        let built = ReadMultipleVariableResponse([
            .init(value: [0x5A]), .init(value: []),
            .init(value: ArraySlice("swift-att".utf8), declaredLength: 15),
        ])
        #expect(built.encoded() == input)
        #expect(built == pdu)
    }

    @Test("a tuple cut to its length field iterates as an empty truncated value")
    func tupleCutAtItsHeader() throws {
        let pdu = try ReadMultipleVariableResponse(parsing: Hex.decode("21 0100 5a 0500"))
        let tuples = Array(pdu.lengthValueTupleList)
        #expect(tuples.count == 2)
        #expect(tuples[1].declaredLength == 5)
        #expect(tuples[1].value.isEmpty)
        #expect(tuples[1].isTruncated)
    }

    @Test("Multiple Handle Value Notification: handle, length and value per tuple")
    func multipleNotificationTuples() throws {
        let input = try Hex.decode("23 1400 0200 0048 2f00 0300 010203 3000 0000")
        let pdu = try MultipleHandleValueNotification(parsing: input)
        let tuples = Array(pdu.handleLengthValueTupleList)
        #expect(pdu.handleLengthValueTupleList.hasHandles)
        #expect(tuples.map(\.handle) == [0x14, 0x2F, 0x30])
        #expect(tuples.map(\.declaredLength) == [2, 3, 0])
        #expect(tuples.map { Array($0.value) } == [[0x00, 0x48], [0x01, 0x02, 0x03], []])
        #expect(!tuples.contains { $0.isTruncated })
        for t in tuples { #expect(Self.isView(t.value, into: input)) }

        let built = MultipleHandleValueNotification([
            .init(handle: 0x14, value: [0x00, 0x48]),
            .init(handle: 0x2F, value: [0x01, 0x02, 0x03]),
            .init(handle: 0x30, value: []),
        ])
        #expect(built.encoded() == input)
    }

    @Test("an empty tuple list iterates nothing")
    func emptyTupleList() {
        #expect(Array(ATTTupleList([], hasHandles: false)).isEmpty)
        #expect(Array(ATTTupleList([], hasHandles: true)).isEmpty)
    }

    @Test("values of value PDUs are views into the input", arguments: GoldenVector.all)
    func valuesAreViews(_ v: GoldenVector) throws {
        let input = v.bytes
        let views: [ArraySlice<UInt8>]
        switch try ATTPDU(parsing: input) {
        case let .readResponse(p): views = [p.value]
        case let .readBlobResponse(p): views = [p.value]
        case let .readMultipleResponse(p): views = [p.setOfValues]
        case let .writeRequest(p): views = [p.value]
        case let .writeCommand(p): views = [p.value]
        case let .handleValueNotification(p): views = [p.value]
        case let .handleValueIndication(p): views = [p.value]
        case let .prepareWriteRequest(p): views = [p.partAttributeValue]
        case let .prepareWriteResponse(p): views = [p.partAttributeValue]
        case let .findByTypeValueRequest(p): views = [p.attributeValue]
        case let .signedWriteCommand(p): views = [p.value, p.authenticationSignature]
        case let .readByTypeResponse(p): views = p.attributeDataList.map(\.value)
        case let .readByGroupTypeResponse(p): views = p.attributeDataList.map(\.value)
        default: views = []
        }
        for view in views {
            #expect(Self.isView(view, into: input))
        }
    }
}
