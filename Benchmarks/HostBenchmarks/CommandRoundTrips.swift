import HeapProbe
import SwiftATTHCI
import SwiftATTHost
import SwiftATTLoopback

/// HCI command round trips through the whole host, with the transport's own cost taken
/// out: Read BD_ADDR answered by the loopback controller, which runs in-process on the
/// thread that sends to it. The caller's task runs on the host's loop (as the CLI's work
/// does), so one thread does the whole trip — `Controller.send`, the loop's job, the
/// command's encoding, the controller, the event's decoding, the answer back to the
/// task — and that thread's CPU time and allocations are what a trip costs the host.
/// Over hci0 under emulation every instruction counts: this is the host's share of the
/// kernel bench's round trip against the C program's (issue 22).
enum CommandRoundTrips {
    struct Figure {
        var trips: Int
        var cpuMicrosecondsPerTrip: Double
        var allocationsPerTrip: Double
    }

    /// `count` round trips after a tenth as many to warm up; the median of `runs`.
    static func measure(count: Int, runs: Int) async throws -> Figure {
        let link = LoopbackLink()
        let loop = try HostEventLoop(name: "bench-commands")
        let central = try await Central.start(transport: link.addController().specification, on: loop)
        let controller = central.controller
        var figures: [Figure] = []
        for _ in 0..<runs {
            figures.append(await Task(executorPreference: loop) {
                for _ in 0..<max(1, count / 10) { _ = try? await controller.send(ReadBDADDR()) }
                let allocations = heap_probe_thread_allocations()
                let cpu = CPUClock.threadSeconds()
                for _ in 0..<count { _ = try? await controller.send(ReadBDADDR()) }
                let spent = CPUClock.threadSeconds() - cpu
                let allocated = heap_probe_thread_allocations() - allocations
                return Figure(trips: count, cpuMicrosecondsPerTrip: spent * 1e6 / Double(count),
                              allocationsPerTrip: Double(allocated) / Double(count))
            }.value)
        }
        await central.close()
        return figures.sorted { $0.cpuMicrosecondsPerTrip < $1.cpuMicrosecondsPerTrip }[figures.count / 2]
    }
}
