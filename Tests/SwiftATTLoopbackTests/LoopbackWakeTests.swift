#if canImport(Glibc)
import Glibc
#endif
import SwiftATTHCI
import SwiftATTLoopback
import Testing
import SwiftATTTransport

/// The link wakes a host by writing to its pipe after releasing the link's lock, so a
/// host may close its transport in between. The pipe must stay open until that write is
/// done: closed at once, its descriptor is free for the process's next `pipe` or
/// `socket`, which then receives the wake-up byte.
@Suite struct LoopbackWakeTests {
    /// Each round: a scanner is woken by an advertiser starting on another thread while
    /// the scanner's host closes its transport and opens new pipes (which take the
    /// lowest free descriptors, the scanner's among them). None of them may receive a
    /// byte. The window is the few instructions between the link's unlock and its
    /// write, so a round hits it only when the advertiser's thread is preempted there:
    /// with the pipe closed at once, four runs in five failed under ThreadSanitizer
    /// (which slows the threads, widening the window) on a loaded two-core machine.
    @Test func aHostClosingWhileWokenLeavesNoByteInAReusedDescriptor() throws {
        for _ in 0..<1000 {
            let link = LoopbackLink()
            let scanner = try link.addController().open()
            _ = try LoopbackHCITests.exchange(scanner, LESetScanParameters(scanType: .passive, scanInterval: 16, scanWindow: 16).packet)
            _ = try LoopbackHCITests.exchange(scanner, LESetScanEnable(scanEnable: true).packet)
            let advertiser = link.addController()
            let thread = Self.spawn {
                guard let transport = try? advertiser.open() else { return }
                // Reported to the scanner at once, which wakes it.
                try? transport.send(LESetAdvertisingEnable(advertisingEnable: true).packet)
                transport.close()
            }
            scanner.close()
            var fresh: [[Int32]] = []
            for _ in 0..<4 {
                var ends: [Int32] = [-1, -1]
                guard pipe(&ends) == 0 else { break }
                _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
                fresh.append(ends)
            }
            pthread_join(thread, nil)
            for ends in fresh {
                var byte: UInt8 = 0
                #expect(read(ends[0], &byte, 1) == -1, "a stray wake-up byte arrived in a new pipe")
                close(ends[0])
                close(ends[1])
            }
        }
    }

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private static func spawn(_ run: @escaping @Sendable () -> Void) -> pthread_t {
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { raw in
            Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, Unmanaged.passRetained(Body(run)).toOpaque())
        precondition(rc == 0, "pthread_create: \(rc)")
        return thread
    }
}
