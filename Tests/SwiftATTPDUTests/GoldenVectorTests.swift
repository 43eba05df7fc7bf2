import SwiftATTPDU
import Testing
import TestSupport

/// Fixtures/att/vectors.json: every PDU type decodes to the fields worked out by hand
/// from Core 5.4 Vol 3 Part F §3.4, and encodes back to exactly its bytes.
@Suite("Golden vectors")
struct GoldenVectorTests {
    @Test("vectors.json loads, is well formed, and covers every defined opcode")
    func vectorFilesAreWellFormed() throws {
        let vectors = try ATTFixtures.load("vectors.json", as: [GoldenVector].self)
        #expect(vectors.count == GoldenVector.all.count)
        #expect(Set(vectors.map(\.name)).count == vectors.count, "vector names are unique")
        for v in vectors {
            let bytes = try Hex.decode(v.hex)
            #expect(Hex.encode(bytes) == v.hex, "\(v.name): hex is lowercase without separators")
            #expect(v.source == "hand-worked" || v.source.hasPrefix("Core 5.4 Vol 3 Part F §3.4."), "\(v.name)")
            #expect(v.fields["opcode"]?.int == Int(v.opcode), "\(v.name): fields.opcode is the first byte")
        }
        let opcodeOnly: Set<ATTOpcode> = [.writeResponse, .executeWriteResponse, .handleValueConfirmation]
        for op in ATTOpcode.allDefined {
            let n = vectors.filter { $0.opcode == op.rawValue }.count
            #expect(n >= (opcodeOnly.contains(op) ? 1 : 2), "\(op) has \(n) vectors")
        }
        #expect(vectors.allSatisfy { ATTOpcode($0.opcode).name != nil })
    }

    @Test("decodes to the listed opcode, name and fields", arguments: GoldenVector.all)
    func decodesToTheListedFields(_ v: GoldenVector) throws {
        let pdu = try ATTPDU(parsing: v.bytes)
        #expect(Int(pdu.opcode.rawValue) == v.fields["opcode"]?.int)
        #expect(pdu.opcode.name == v.fields["name"]?.string)
        let expected = FixtureJSON.object(v.fields).withoutInformationalNames
        #expect(FixtureJSON.object(PDUFields.of(pdu)) == expected)
    }

    @Test("re-encodes to exactly the parsed bytes", arguments: GoldenVector.all)
    func reencodesToTheSameBytes(_ v: GoldenVector) throws {
        let bytes = v.bytes
        let pdu = try ATTPDU(parsing: bytes)
        #expect(pdu.encodedLength == bytes.count)
        #expect(pdu.encoded() == bytes)
        #expect(pdu.payload.encodedLength == bytes.count)
        #expect(pdu.payload.encoded() == bytes)

        // The concrete type's own parser agrees with the dispatching one.
        let concrete = try type(of: pdu.payload).init(parsing: bytes)
        #expect(concrete.encoded() == bytes)
        // A handle/value PDU's handle-only check finds the same handle.
        if let shaped = concrete as? any ATTHandleValuePDU {
            #expect(try type(of: shaped).handle(in: bytes[...]) == shaped.handle)
            // …and its value starts where `valueOffset` says.
            #expect(Array(bytes[type(of: shaped).valueOffset...]) == Array(shaped.value))
        }
    }

    @Test("builds from its fields through the public initialisers", arguments: GoldenVector.all)
    func buildsFromItsFields(_ v: GoldenVector) throws {
        let built = try PDUFields.build(v.fields)
        #expect(built.encoded() == v.bytes)
        #expect(built.encodedLength == v.bytes.count)
        #expect(try ATTPDU(parsing: v.bytes) == built)
    }

    @Test("parses a slice in the middle of a larger buffer", arguments: GoldenVector.all)
    func parsesASliceOfALargerBuffer(_ v: GoldenVector) throws {
        let bytes = v.bytes
        let buffer: [UInt8] = [0xEE, 0xEE, 0xEE] + bytes + [0xEE, 0xEE]
        let slice = buffer[3..<(3 + bytes.count)]
        let pdu = try ATTPDU(parsing: slice)
        #expect(pdu == (try ATTPDU(parsing: bytes)))
        #expect(PDUFields.of(pdu) == PDUFields.of(try ATTPDU(parsing: bytes)))
        #expect(pdu.encoded() == bytes)
    }

    @Test("encode(into:) writes into a buffer of exactly encodedLength, refuses a smaller one", arguments: GoldenVector.all)
    func encodesIntoCallerBuffers(_ v: GoldenVector) throws {
        let bytes = v.bytes
        let pdu = try ATTPDU(parsing: bytes)
        let n = bytes.count

        var exact = [UInt8](repeating: 0xCC, count: n)
        let written = exact.withUnsafeMutableBytes { pdu.encode(into: $0) }
        #expect(written == n)
        #expect(exact == bytes)

        var roomy = [UInt8](repeating: 0xCC, count: n + 7)
        let writtenRoomy = roomy.withUnsafeMutableBytes { pdu.encode(into: $0) }
        #expect(writtenRoomy == n)
        #expect(Array(roomy.prefix(n)) == bytes)
        #expect(roomy.suffix(7).allSatisfy { $0 == 0xCC }, "nothing written past encodedLength")

        var small = [UInt8](repeating: 0xCC, count: n - 1)
        let writtenSmall = small.withUnsafeMutableBytes { pdu.encode(into: $0) }
        #expect(writtenSmall == nil)
        #expect(small.allSatisfy { $0 == 0xCC }, "a refused encode writes nothing")
    }

    @Test("encode(appendingTo:) appends after existing bytes", arguments: GoldenVector.all)
    func appendsAfterExistingBytes(_ v: GoldenVector) throws {
        let bytes = v.bytes
        let pdu = try ATTPDU(parsing: bytes)
        var out: [UInt8] = [0xAA, 0xBB]
        pdu.encode(appendingTo: &out)
        #expect(out == [0xAA, 0xBB] + bytes)

        // Twice in a row, into an array that already has spare capacity.
        var framed: [UInt8] = []
        framed.reserveCapacity(2 * bytes.count + 4)
        pdu.encode(appendingTo: &framed)
        pdu.encode(appendingTo: &framed)
        #expect(framed == bytes + bytes)
    }

    @Test("typed initialisers of Signed Write Command check the signature length")
    func signedWriteSignatureLength() throws {
        for n in [0, 11, 13] {
            #expect(throws: ATTDecodingError.invalidSignatureLength(n)) {
                try SignedWriteCommand(handle: 1, value: [], authenticationSignature: ArraySlice(repeating: 0, count: n))
            }
        }
        let ok = try SignedWriteCommand(handle: 0x24, value: [1, 2], authenticationSignature: [1, 0, 0, 0, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88])
        #expect(Hex.encode(ok.encoded()) == "d224000102010000001122334455667788")
        #expect(ok.signCounter == 1)
    }

    @Test("Signed Write Command's value and signature are set independently (one view holds both)")
    func signedWriteSetters() throws {
        let signature: [UInt8] = [1, 0, 0, 0, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88]
        var command = try SignedWriteCommand(parsing: [0xD2, 0x24, 0x00, 0x01, 0x02] + signature)
        command.value = [0xAA, 0xBB, 0xCC]
        #expect(Array(command.value) == [0xAA, 0xBB, 0xCC])
        #expect(Array(command.authenticationSignature) == signature)
        #expect(Hex.encode(command.encoded()) == "d22400aabbcc010000001122334455667788")
        command.authenticationSignature = ArraySlice(repeating: 0x5A, count: 12)
        #expect(Array(command.value) == [0xAA, 0xBB, 0xCC])
        #expect(command.signCounter == 0x5A5A_5A5A)
        command.value = []
        #expect(command.encodedLength == 3 + 12)
        #expect(try ATTPDU(parsing: command.encoded()) == .signedWriteCommand(command))
    }
}
