#if canImport(Glibc)
import Glibc
#endif
import SwiftATTHost
import Testing

/// Loop threads carry names that `top -H`, `ps -L` and `gdb` show.
@Suite struct LoopThreadNameTests {
    /// The calling thread's name as the kernel holds it.
    static func currentThreadName() -> String? {
        threadName(at: "/proc/thread-self/comm")
    }

    static func threadName(at path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n].filter { $0 != 0x0A }, as: UTF8.self)
    }

    /// The names of this process's threads.
    static func threadNames() -> [String] {
        guard let dir = opendir("/proc/self/task") else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let id = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard id.first?.isNumber == true, let name = threadName(at: "/proc/self/task/\(id)/comm") else { continue }
            names.append(name)
        }
        return names
    }

    @Test func aTaskOnANamedLoopRunsOnAThreadOfThatName() async throws {
        let loop = try HostEventLoop(name: "att-radio-2")
        let name = await Task(executorPreference: loop) { Self.currentThreadName() }.value
        #expect(name == "att-radio-2")
    }

    @Test(arguments: [
        ("swift-att-dongle-number-three", "swift-att-dongl"),
        ("att-radio-xéé-x", "att-radio-xéé"),  // the cut falls after a whole "é"
        ("att-radio-xyéé", "att-radio-xyé"),   // the second "é" would straddle it
    ])
    func aLongNameIsCutToFifteenBytesOnACharacterBoundary(name: String, kept: String) async throws {
        let loop = try HostEventLoop(name: name)
        #expect(await Task(executorPreference: loop) { Self.currentThreadName() }.value == kept)
    }

    /// Hosts started without `on:` run on the process's loop, one thread named for it,
    /// however many there are: the default shares a thread, as Bumble's hosts share an
    /// asyncio loop.
    @Test func hostsWithoutALoopOfTheirOwnShareTheProcesssLoopThread() async throws {
        let pair = try await LoopbackEndToEndTests.Pair.start()
        let shared = try HostEventLoop.shared
        #expect(pair.central.eventLoop === shared && pair.peripheral.eventLoop === shared)
        #expect(await Task(executorPreference: shared) { Self.currentThreadName() }.value == "swift-att host")
        // However many hosts run (other tests' come and go meanwhile), one thread.
        #expect(Self.threadNames().filter { $0 == "swift-att host" }.count == 1)
        await pair.stop()
    }
}
