import SwiftATTCore
import Testing

/// BluetoothUUID is 8-byte aligned: Swift 6.3's -Onone code generation for async
/// closures capturing a 16-byte-aligned value beside other captures stores it with
/// alignment-checked instructions at a misaligned slot and crashes on the first call
/// (swiftlang/swift#90813). Every GATT handle type holds a UUID, so an application's
/// task capturing a characteristic and a value would crash its debug build.
@Suite struct BluetoothUUIDLayoutTests {
    struct Holder: Sendable { var uuid: BluetoothUUID; var handle: UInt16 }

    static func use(_ value: [UInt8], _ holder: Holder) async throws(UUIDUseError) -> Int {
        await Task.yield()
        if value.count > 1000 { throw .tooLong }
        return value.count + Int(holder.handle) + (holder.uuid.uuid16.map(Int.init) ?? 0)
    }

    enum UUIDUseError: Error { case tooLong }

    @Test func alignedToEightBytes() {
        #expect(MemoryLayout<BluetoothUUID>.alignment == 8)
    }

    @Test func aTaskCapturingAUUIDAndAnArrayRuns() async throws {
        let holders = (0..<6).map { Holder(uuid: BluetoothUUID(UInt16(0x2A00 + $0)), handle: UInt16($0)) }
        let values = (0..<6).map { [UInt8](repeating: UInt8($0), count: 30 + $0) }
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<6 {
                let holder = holders[index]
                let value = values[index]
                group.addTask { try await Self.use(value, holder) }
            }
            return try await group.reduce(0, +)
        }
        #expect(total == (0..<6).reduce(0) { $0 + 30 + $1 + $1 + 0x2A00 + $1 })
    }

    @Test func equalityHashingAndOrderFollowTheExpansion() {
        let short = BluetoothUUID(0x180D)
        let long = BluetoothUUID(uuid128: 0x0000_180D_0000_1000_8000_0080_5F9B_34FB)
        #expect(short == long && short.hashValue == long.hashValue)
        #expect(long.uuid128 == 0x0000_180D_0000_1000_8000_0080_5F9B_34FB)
        #expect(BluetoothUUID(0x180D) < BluetoothUUID(0x180F))
        #expect(BluetoothUUID(uuid128: 1) < BluetoothUUID(uuid128: 1 << 64))
        #expect(BluetoothUUID(uuid128: (1 << 64) | 5) > BluetoothUUID(uuid128: (1 << 64) | 4))
    }
}
