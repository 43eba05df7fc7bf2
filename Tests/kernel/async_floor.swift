// The floor of an async HCI command round trip in Swift: what the concurrency runtime
// itself costs, with no host stack around it. The kernel bench boots it as the second
// build of `round_trip_ab` (`KERNEL_BENCH_SWIFT_ATT_B=floor Tests/kernel/run.sh --only
// round_trip_ab`), which puts swift-att (A), this floor (B) and the C baseline side by
// side in one boot, round by round.
//
// The shape is swift-att's, stripped: a loop thread that is a `TaskExecutor` polls the
// adapter and a wake-up pipe; a task that prefers the loop writes Read BD_ADDR and
// awaits an unsafe continuation, which the loop resumes when the Command Complete is
// read; the task's next write happens in the same turn. So the gap between this floor
// and C is what Swift's tasks, continuations and executors cost on the path, and the gap
// between swift-att and this floor is the host's own code (KernelBench.md).
//
// Takes swift-att's arguments (`info --transport hci0|tcp:HOST:PORT --round-trips N`,
// `--bonds` ignored) and prints the line the bench reads from it ("HCI round trip:
// median …"). `FLOOR_SYNC=1` does the same round trips from the main thread with no
// task at all: write, poll, read.
//
//     swiftc -O -swift-version 6 -static-stdlib Tests/kernel/async_floor.swift -o async_floor
import Glibc
import Synchronization

func fail(_ what: String) -> Never {
    let message = "async_floor: \(what): \(String(cString: strerror(errno)))\n"
    _ = message.withCString { write(2, $0, strlen($0)) }
    exit(1)
}

/// `hciN`'s user channel, the adapter taken down first (as `hci_baseline.c` does).
func openAdapter(_ name: String) -> Int32 {
    guard let index = UInt16(name.dropFirst(3)) else { fail("no adapter named \(name)") }
    let fd = socket(31 /* AF_BLUETOOTH */, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 1 /* BTPROTO_HCI */)
    if fd < 0 { fail("socket(AF_BLUETOOTH)") }
    // struct sockaddr_hci { family, dev, channel }: HCI_CHANNEL_USER is 1.
    var address: (UInt16, UInt16, UInt16) = (31, index, 1)
    for attempt in 0... {
        _ = ioctl(fd, 0x4004_48CA /* HCIDEVDOWN */, Int32(index))
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, 6) }
        }
        if bound == 0 { return fd }
        if (errno != EBUSY && errno != EALREADY) || attempt == 100 { fail("bind(HCI_CHANNEL_USER)") }
        usleep(100_000)
    }
    fail("unreachable")
}

/// A controller on 127.0.0.1:PORT speaking H4 (the bench's Bumble controllers).
func openTCP(_ specification: String) -> Int32 {
    guard let port = specification.split(separator: ":").last.flatMap({ UInt16($0) }) else { fail("no port in \(specification)") }
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let connected = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    if connected != 0 { fail("connect \(specification)") }
    var one: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, 4)
    return fd
}

/// Read BD_ADDR, with its H4 indicator.
let readBDADDR: [UInt8] = [0x01, 0x09, 0x10, 0x00]

func writeCommand(_ fd: Int32) {
    if readBDADDR.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) != readBDADDR.count { fail("write") }
}

/// Reads until Read BD_ADDR's Command Complete (one packet per read on the user channel;
/// on TCP one read holds the whole event while one command is outstanding).
func readComplete(_ fd: Int32, _ buffer: UnsafeMutableRawPointer) {
    while true {
        let n = read(fd, buffer, 4096)
        if n < 0 {
            if errno == EINTR || errno == EAGAIN { continue }
            fail("read")
        }
        let bytes = buffer.assumingMemoryBound(to: UInt8.self)
        if n >= 6 && bytes[0] == 0x04 && bytes[1] == 0x0E && bytes[4] == 0x09 && bytes[5] == 0x10 { return }
    }
}

func bootNanoseconds() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_BOOTTIME, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}

/// The loop thread and its executor: jobs queued under a mutex (a wake-up pipe byte
/// when queued from another thread), run before each `poll(2)`.
final class Loop: TaskExecutor, @unchecked Sendable {
    let fd: Int32
    let wakeRead: Int32
    let wakeWrite: Int32
    let queue = Mutex<[UnownedJob]>([])
    /// The task's continuation while its command is out; loop thread only.
    nonisolated(unsafe) var pending: UnsafeContinuation<Void, Never>?
    let thread = Atomic<UInt>(0)
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16)

    init(fd: Int32) {
        self.fd = fd
        var ends: [Int32] = [0, 0]
        if pipe(&ends) != 0 { fail("pipe") }
        (wakeRead, wakeWrite) = (ends[0], ends[1])
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.withLock { $0.append(job) }
        if thread.load(ordering: .relaxed) != UInt(pthread_self()) {
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
        }
    }

    func run() -> Never {
        thread.store(UInt(pthread_self()), ordering: .relaxed)
        var jobs: [UnownedJob] = []
        var descriptors = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        var drain = [UInt8](repeating: 0, count: 64)
        while true {
            queue.withLock { swap(&$0, &jobs) }
            for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
            jobs.removeAll(keepingCapacity: true)
            if !queue.withLock({ $0.isEmpty }) { continue }
            if poll(&descriptors, 2, -1) < 0 {
                if errno == EINTR { continue }
                fail("poll")
            }
            if descriptors[1].revents != 0 { _ = read(wakeRead, &drain, drain.count) }
            if descriptors[0].revents != 0 {
                readComplete(fd, buffer)
                if let continuation = pending {
                    pending = nil
                    continuation.resume()
                }
            }
        }
    }
}

func startThread(_ body: @escaping @Sendable () -> Void) {
    final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
    var thread = pthread_t()
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    let created = pthread_create(&thread, nil, { context in
        Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
        return nil
    }, context)
    if created != 0 { fail("pthread_create") }
}

func report(_ samples: [Int64]) {
    let sorted = samples.sorted()
    func milliseconds(_ nanoseconds: Int64) -> String {
        let hundredths = (nanoseconds + 5_000) / 10_000
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
    print("HCI round trip: median \(milliseconds(sorted[sorted.count / 2])) ms, min \(milliseconds(sorted[0])) ms, "
        + "max \(milliseconds(sorted[sorted.count - 1])) ms over \(sorted.count) Read BD_ADDR")
}

func roundTripsWithoutTasks(_ fd: Int32, count: Int) -> [Int64] {
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16)
    var samples: [Int64] = []
    samples.reserveCapacity(count)
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    for _ in 0..<count {
        let started = bootNanoseconds()
        writeCommand(fd)
        _ = poll(&descriptor, 1, -1)
        readComplete(fd, buffer)
        samples.append(bootNanoseconds() &- started)
    }
    return samples
}

func roundTripsOnTheLoop(_ fd: Int32, count: Int) async -> [Int64] {
    let loop = Loop(fd: fd)
    startThread { loop.run() }
    let task = Task(executorPreference: loop) { () -> [Int64] in
        var samples: [Int64] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            let started = bootNanoseconds()
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                loop.pending = continuation
                writeCommand(fd)
            }
            samples.append(bootNanoseconds() &- started)
        }
        return samples
    }
    return await task.value
}

var transport = "hci0"
var count = 200
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--transport": transport = arguments.popFirst() ?? transport
    case "--round-trips": count = arguments.popFirst().flatMap { Int($0) } ?? count
    default: break
    }
}
let fd = transport.hasPrefix("tcp:") ? openTCP(transport) : openAdapter(transport)
let samples = getenv("FLOOR_SYNC") != nil ? roundTripsWithoutTasks(fd, count: count) : await roundTripsOnTheLoop(fd, count: count)
report(samples)
exit(0)
