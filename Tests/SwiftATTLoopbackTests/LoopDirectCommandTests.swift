import Foundation
import SwiftATTHCI
@testable import SwiftATTHost
import SwiftATTLoopback
import Testing

/// A task that the loop runs writes its command at once, skipping the runner's queue,
/// only when nothing handed to the loop before it still waits there: the commands reach
/// the controller in the order they were handed over, whichever path each took.
@Suite struct LoopDirectCommandTests {
    /// The commands the host wrote, in order (opcodes, from its btsnoop capture).
    static func sentOpcodes(_ capture: String) throws -> [UInt16] {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: capture)))
        return try BTSnoop.records(in: bytes).compactMap { record in
            guard record.packetType == .command, record.direction == .sent, record.packet.count >= 2 else { return nil }
            let p = record.packet
            return UInt16(p[p.startIndex]) | UInt16(p[p.startIndex + 1]) << 8
        }
    }

    @Test func aCommandAnotherThreadQueuedGoesOutBeforeTheNextOfATaskOnTheLoop() async throws {
        let capture = FileManager.default.temporaryDirectory
            .appendingPathComponent("direct-\(UInt64.random(in: 0...UInt64.max)).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: capture) }
        // A loop of its own: the test holds its thread for a moment, which on the shared
        // loop would hold up every other test's hosts.
        let loop = try HostEventLoop()
        let host = try await Controller.open(LoopbackLink().addController().specification, capturePath: capture, on: loop)
        let runner = host.loop.eventLoop.runner
        let queued = DispatchSemaphore(value: 0)
        let (answers, answered) = AsyncStream<Result<HCICommandAnswer, ControllerError>>.makeStream()
        try await withTaskExecutorPreference(host.eventLoop) {
            // Taken by the loop: a first command's answer resumes this task there.
            _ = try await host.send(ReadBDADDR())
            #expect(runner.onLoopThread)
            // Another thread hands the loop a command while the loop thread is held
            // here, so that it waits in the queue when this task sends its own.
            Thread.detachNewThread {
                host.loop.submit(ReadLocalVersionInformation().packet, timeout: .seconds(3),
                                 waiter: .callback { answered.yield($0) })
                queued.signal()
            }
            queued.wait()
            _ = try await host.send(ReadBDADDR())
            // The direct path is taken when nothing waits: the next command is written
            // from here (the capture shows it after the two above either way).
            _ = try await host.send(LEReadBufferSize())
            #expect(runner.onLoopThread)
        }
        var iterator = answers.makeAsyncIterator()
        let other = await iterator.next()
        guard case .success = other else { Issue.record("the queued command: \(String(describing: other))"); return }
        await host.close()
        let sent = try Self.sentOpcodes(capture)
        let tail = Array(sent.suffix(4))
        #expect(tail == [ReadBDADDR.opcode.rawValue, ReadLocalVersionInformation.opcode.rawValue,
                         ReadBDADDR.opcode.rawValue, LEReadBufferSize.opcode.rawValue], "\(sent)")
    }
}
