import SwiftATTAdvertising
import SwiftATTCore
import Testing
import TestSupport

/// Bad lengths throw the typed error naming the structure's offset; nothing traps.
@Suite("Malformed input")
struct MalformedInputTests {
    @Test("malformed.json loads and every entry names an error")
    func tableIsWellFormed() throws {
        let table = try AdvertisingFixtures.load("malformed.json", as: [MalformedVector].self)
        #expect(table.count == MalformedVector.all.count && table.count >= 30)
        for entry in table { #expect(entry.expectedError != nil, "\(entry.name)") }
    }

    @Test("throws exactly the listed error", arguments: MalformedVector.all)
    func throwsTheListedError(_ entry: MalformedVector) throws {
        let expected = try #require(entry.expectedError)
        #expect(throws: expected) { try AdvertisingData(parsing: entry.bytes) }
        let (prefix, error) = AdvertisingData.parsingValidPrefix(entry.bytes[...])
        #expect(error == expected)
        #expect(prefix.significantLength == expected.offset)
        #expect(Array(prefix.bytes) == Array(entry.bytes.prefix(expected.offset)))
        #expect(!expected.description.isEmpty)
        #expect(expected.description.contains("byte \(expected.offset)"))
    }

    /// Each type with a length rule, every data length from 0 to 40: the rule decides
    /// whether it parses, and a failure names the type, offset 3 (after a Flags structure)
    /// and the length.
    @Test("every length of every checked type", arguments: (0...0xFF).map { ADType(UInt8($0)) }.filter { $0.lengthRequirement != nil })
    func everyLengthOfEveryCheckedType(_ type: ADType) throws {
        let rule = try #require(type.lengthRequirement)
        for length in 0...40 {
            let payload: [UInt8] = [0x02, 0x01, 0x06, UInt8(length + 1), type.rawValue] + (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 1) }
            if rule.isSatisfied(by: length) {
                let data = try AdvertisingData(parsing: payload)
                #expect(data.count == 2)
                let item = data.items[1]
                #expect(item.type == type)
                if type == .leBluetoothDeviceAddress {
                    // Bits 1–7 of the address type octet are reserved: receivers ignore them,
                    // so the item keeps only bit 0 and re-encodes them as zero.
                    var expected = Array(payload[3...])
                    expected[expected.count - 1] &= 0x01
                    #expect(item.encoded() == expected)
                } else {
                    #expect(item.encoded() == Array(payload[3...]), "\(type) length \(length) re-encodes")
                }
            } else {
                #expect(throws: ADDecodingError.invalidLength(type, offset: 3, length: length, required: rule)) {
                    try AdvertisingData(parsing: payload)
                }
                #expect(throws: ADEncodingError.invalidData(.invalidLength(type, offset: 0, length: length, required: rule))) {
                    try ADStructure(type: type, data: Array(payload[5...]))
                }
            }
        }
    }

    @Test("the rules the Supplement gives, type by type")
    func rules() {
        let expected: [(ADType, ADLengthRequirement?)] = [
            (.flags, nil),
            (.incompleteListOf16BitServiceUUIDs, .multiple(of: 2)), (.completeListOf16BitServiceUUIDs, .multiple(of: 2)),
            (.incompleteListOf32BitServiceUUIDs, .multiple(of: 4)), (.completeListOf32BitServiceUUIDs, .multiple(of: 4)),
            (.incompleteListOf128BitServiceUUIDs, .multiple(of: 16)), (.completeListOf128BitServiceUUIDs, .multiple(of: 16)),
            (.shortenedLocalName, nil), (.completeLocalName, nil),
            (.txPowerLevel, .exactly(1)), (.peripheralConnectionIntervalRange, .exactly(4)),
            (.listOf16BitServiceSolicitationUUIDs, .multiple(of: 2)), (.listOf32BitServiceSolicitationUUIDs, .multiple(of: 4)),
            (.listOf128BitServiceSolicitationUUIDs, .multiple(of: 16)),
            (.serviceData16BitUUID, .atLeast(2)), (.serviceData32BitUUID, .atLeast(4)), (.serviceData128BitUUID, .atLeast(16)),
            (.publicTargetAddress, .multiple(of: 6)), (.randomTargetAddress, .multiple(of: 6)),
            (.appearance, .exactly(2)), (.advertisingInterval, .exactly(2)), (.advertisingIntervalLong, .between(3, 4)),
            (.leBluetoothDeviceAddress, .exactly(7)), (.leRole, .exactly(1)), (.uri, .atLeast(1)),
            (.manufacturerSpecificData, .atLeast(2)), (.classOfDevice, nil), (ADType(0x33), nil),
        ]
        for (type, rule) in expected { #expect(type.lengthRequirement == rule, "\(type)") }
    }

    @Test("names never throw, whatever their bytes")
    func namesNeverThrow() throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let n = Int.random(in: 0...29, using: &rng)
            let bytes = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
            for type in [ADType.shortenedLocalName, .completeLocalName] {
                let data = try AdvertisingData(parsing: [UInt8(n + 1), type.rawValue] + bytes)
                let name = try #require(data.localName)
                #expect(Array(name.bytes) == bytes)
                #expect(name.isValidUTF8 == (String(validating: bytes, as: UTF8.self) != nil))
                if name.isValidUTF8 { #expect(Array(name.name.utf8) == bytes) }
            }
        }
    }

    /// Every prefix of every vector either parses (and re-encodes to itself) or throws a
    /// typed error whose offset lies inside the prefix.
    @Test("every truncation of every vector", arguments: GoldenVector.all)
    func everyTruncation(_ v: GoldenVector) {
        let bytes = v.bytes
        for n in 0...bytes.count {
            let prefix = Array(bytes.prefix(n))
            do {
                let data = try AdvertisingData(parsing: prefix)
                #expect(data.encoded() == prefix)
                _ = ADFields.of(data)
            } catch {
                #expect(error.offset < n, "\(v.name) cut to \(n): \(error)")
                if case let .structureOverrun(offset, length, remaining) = error {
                    #expect(offset + 1 + remaining == n && length > remaining)
                }
            }
            // The same bytes as the tail of a larger buffer (slices are read from their start).
            let buffer = [0xAB] + prefix
            let viaSlice = try? AdvertisingData(parsing: buffer[1...])
            let viaArray = try? AdvertisingData(parsing: prefix)
            #expect(viaSlice == viaArray)
        }
    }

    @Test("an empty payload is valid and empty")
    func emptyPayload() throws {
        let data = try AdvertisingData(parsing: [])
        #expect(data.isEmpty && data.significantLength == 0 && data.padding.isEmpty && data.encoded() == [])
        let zeros = try AdvertisingData(parsing: [UInt8](repeating: 0, count: 31))
        #expect(zeros.isEmpty && zeros.padding.count == 31 && zeros.paddingIsZero)
    }

    @Test("error descriptions say what and where")
    func errorDescriptions() {
        #expect(ADDecodingError.structureOverrun(offset: 3, length: 5, remaining: 4).description
            == "AD structure at byte 3 runs past the end: its length octet says 5 bytes follow, only 4 do")
        #expect(ADDecodingError.invalidLength(.txPowerLevel, offset: 0, length: 2, required: .exactly(1)).description
            == "Tx Power Level at byte 0: data is 2 bytes; must be exactly 1 byte")
        #expect(ADDecodingError.invalidLength(.advertisingIntervalLong, offset: 7, length: 5, required: .between(3, 4)).description
            == "Advertising Interval - long at byte 7: data is 5 bytes; must be 3 or 4 bytes")
        #expect(ADDecodingError.invalidLength(ADType(0x16), offset: 0, length: 1, required: .atLeast(2)).description
            == "Service Data - 16-bit UUID at byte 0: data is 1 byte; must be at least 2 bytes")
        #expect(ADEncodingError.tooLong(needed: 33, limit: 31).description == "advertising data needs 33 bytes; the limit is 31")
    }
}

/// Seeded random inputs: nothing traps, and whatever parses behaves.
@Suite("Fuzz")
struct FuzzTests {
    /// 100,000 inputs: a third uniformly random bytes, a third random well-framed structures
    /// (so type-specific decoders see every length), a third mutated golden vectors.
    @Test("100,000 seeded inputs never trap")
    func seededInputsNeverTrap() {
        var rng = SplitMix64(seed: 0x5EED_AD5)
        let seeds = GoldenVector.all.map(\.bytes).filter { !$0.isEmpty }
        var parsed = 0
        var failed = 0
        for round in 0..<100_000 {
            var input: [UInt8]
            switch round % 3 {
            case 0:
                input = (0..<Int.random(in: 0...40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            case 1:
                input = []
                for _ in 0..<Int.random(in: 0...6, using: &rng) {
                    let n = Int.random(in: 0...24, using: &rng)
                    // Bias types toward the decoded ones.
                    let type: UInt8 = Bool.random(using: &rng)
                        ? [0x01, 0x02, 0x03, 0x05, 0x07, 0x08, 0x09, 0x0A, 0x12, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19,
                           0x1A, 0x1B, 0x1C, 0x1F, 0x20, 0x21, 0x24, 0x2F, 0xFF].randomElement(using: &rng)!
                        : UInt8.random(in: 0...255, using: &rng)
                    input += [UInt8(n + 1), type]
                    if type == 0x16, n >= 3, Bool.random(using: &rng) {
                        // Eddystone-shaped service data.
                        input += [0xAA, 0xFE, [0x00, 0x10, 0x20, 0x30, 0x40].randomElement(using: &rng)!]
                        input += (0..<(n - 3)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                    } else if type == 0xFF, n >= 4, Bool.random(using: &rng) {
                        input += [0x4C, 0x00, 0x02, 0x15]
                        input += (0..<(n - 4)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                    } else {
                        input += (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
                    }
                }
                if Bool.random(using: &rng), !input.isEmpty { input.removeLast(Int.random(in: 1...min(3, input.count), using: &rng)) }
            default:
                input = seeds.randomElement(using: &rng) ?? []
                for _ in 0..<Int.random(in: 1...3, using: &rng) where !input.isEmpty {
                    let i = Int.random(in: 0..<input.count, using: &rng)
                    switch Int.random(in: 0...2, using: &rng) {
                    case 0: input[i] = UInt8.random(in: 0...255, using: &rng)
                    case 1: input.remove(at: i)
                    default: input.insert(UInt8.random(in: 0...255, using: &rng), at: i)
                    }
                }
            }
            do {
                let data = try AdvertisingData(parsing: input)
                parsed += 1
                exercise(data, input)
            } catch {
                failed += 1
                if error.offset >= input.count || error.description.isEmpty { Issue.record("bad error \(error) for \(Hex.encode(input))") }
                let (prefix, prefixError) = AdvertisingData.parsingValidPrefix(input[...])
                if prefixError != error || prefix.significantLength != error.offset {
                    Issue.record("valid prefix disagrees for \(Hex.encode(input))")
                }
                exercise(prefix, Array(input.prefix(error.offset)))
            }
        }
        #expect(parsed > 10_000 && failed > 10_000, "parsed \(parsed), failed \(failed)")
    }

    /// Everything a scanner or the CLI would touch.
    func exercise(_ data: AdvertisingData, _ input: [UInt8]) {
        if data.encoded() != input { Issue.record("re-encode differs for \(Hex.encode(input))") }
        let items = data.items
        for item in items {
            _ = item.description
            if item.encodedLength != item.encoded().count { Issue.record("length mismatch for \(item)") }
        }
        if let rebuilt = try? AdvertisingData(items, maximumLength: 4096),
           let reparsed = try? AdvertisingData(parsing: Array(rebuilt.bytes)) {
            if reparsed.items != items { Issue.record("items do not round-trip for \(Hex.encode(input))") }
        } else {
            Issue.record("items do not rebuild for \(Hex.encode(input))")
        }
        _ = ADFields.of(data)
        _ = (data.flags, data.serviceUUIDs, data.solicitedServiceUUIDs, data.localName?.name, data.txPowerLevel,
             data.peripheralConnectionIntervalRange?.description, data.appearance?.description, data.targetAddresses,
             data.advertisingInterval?.description, data.leBluetoothDeviceAddress, data.leRole?.description,
             data.uris.map(\.description), data.manufacturerSpecificData.map(\.description),
             data.serviceData.map(\.description), data.iBeacon?.description, data.eddystone?.description)
        if let frame = data.eddystone, EddystoneFrame(frame.serviceData) != frame {
            Issue.record("Eddystone frame does not round-trip for \(Hex.encode(input))")
        }
        if let beacon = data.iBeacon, IBeacon(beacon.manufacturerSpecificData) != beacon {
            Issue.record("iBeacon does not round-trip for \(Hex.encode(input))")
        }
    }
}
