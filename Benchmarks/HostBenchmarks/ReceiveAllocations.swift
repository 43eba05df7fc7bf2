import HeapProbe
import SwiftATTHost
import SwiftATTLoopback

/// Heap allocations per notification, on each side of a link (issue 22: at most one per
/// notification received, the value the application is handed).
///
/// Counted by HeapProbe's interposed malloc, which counts per thread: the bench runs the
/// "split" layout (`LoopLayout.split`), where the receiving host and the task draining
/// its stream share one `HostEventLoop` thread and the sending host and its task
/// another, so each thread's count is one side's whole path — HCI to the application's
/// stream, or `updateValue` to HCI — with that side's share of the emulated controllers'
/// work, which runs on the thread of the host that hands them packets: each Number Of
/// Completed Packets event is built on the receiving thread, which a hardware controller
/// does in itself: in a pooled buffer the host hands back (it cost six allocations each,
/// found with gdb, when its entries and packet were fresh arrays).
/// A count per thread, read on the thread by a task preferring its loop, as the CPU
/// times are.
enum ReceiveAllocations {
    struct Figure {
        var notifications: Int
        var receiverPerNotification: Double
        var senderPerNotification: Double
        /// Number Of Completed Packets events the emulated controllers sent: each is
        /// built on the thread of the host whose packets it credits.
        var completedPacketsEventsPerNotification: Double
    }

    /// Whether the probe counts anything in this build (glibc, no sanitizer).
    static var available: Bool { heap_probe_is_available() != 0 }

    /// One link, `count` values of `valueLength` octets after a tenth as many to warm up;
    /// the warm-up's allocations are counted too (buffers reach their size there), over
    /// every value sent.
    static func measure(valueLength: Int, count: Int) async throws -> Figure {
        let link = LoopbackLink(aclBufferLength: 251, aclBufferCount: 64)
        let bench = try await NotificationBench.start(
            peripheral: link.addController().specification, centrals: [link.addController().specification],
            valueLength: valueLength, layout: .split)
        guard let senderLoop = bench.senderLoop, let receiverLoop = bench.receiverLoops.first ?? nil else {
            preconditionFailure("the split layout gives each side a loop")
        }
        let warmup = count / 10
        let before = (await allocations(on: senderLoop), await allocations(on: receiverLoop))
        let eventsBefore = link.statistics.completedPacketsEvents
        _ = await bench.run(warmup: warmup, count: count)
        let after = (await allocations(on: senderLoop), await allocations(on: receiverLoop))
        let events = link.statistics.completedPacketsEvents - eventsBefore
        await bench.stop()
        let n = Double(warmup + count)
        return Figure(notifications: warmup + count,
                      receiverPerNotification: Double(after.1 - before.1) / n,
                      senderPerNotification: Double(after.0 - before.0) / n,
                      completedPacketsEventsPerNotification: Double(events) / n)
    }

    private static func allocations(on loop: HostEventLoop) async -> UInt64 {
        await Task(executorPreference: loop) { heap_probe_thread_allocations() }.value
    }
}
