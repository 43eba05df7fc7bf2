import SwiftATTHCI
import SwiftATTHost
import SwiftATTLoopback
import Testing

/// A command's answer reaches its caller two ways: `send` decodes the return parameters
/// on the loop, where the transport's bytes lie, for the caller's command type
/// (`CommandReply`, its continuation's type erased), and `exchange` hands the answer over
/// with its return parameters in an array of their own. Both are checked against each
/// other, and many commands of different types wait at once, so that a waiter resumed
/// with another command's type could not pass.
@Suite struct CommandAnswerPathTests {
    @Test func exchangeGetsAnAnswerOfItsOwnThatSendDecodesTheSame() async throws {
        let host = try await Controller.open(LoopbackLink().addController().specification)
        let sent = try await host.send(ReadBDADDR())
        let answer = try await host.exchange(ReadBDADDR().packet)
        guard case let .complete(complete) = answer else {
            Issue.record("Read BD_ADDR answered with \(answer)")
            return await host.close()
        }
        // Compact: the whole array is the return parameters, not a view into a buffer.
        #expect(complete.returnParameters.startIndex == 0)
        #expect(complete.returnParameters.count == 7)
        #expect(try ReadBDADDR.returnParameters(from: answer) == sent)
        #expect(sent.status == .success)
        await host.close()
    }

    @Test func commandsOfManyTypesInFlightAtOnceEachGetTheirOwnAnswer() async throws {
        let host = try await Controller.open(LoopbackLink().addController().specification)
        let address = try await host.send(ReadBDADDR()).address
        let version = try await host.send(ReadLocalVersionInformation())
        let commands = try await host.send(ReadLocalSupportedCommands())
        let buffers = try await host.send(LEReadBufferSize())
        // Four tasks, each a different command type, interleaved through the loop's
        // command flow (the controller grants credits one answer at a time).
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for _ in 0..<300 {
                    let answer = try await host.send(ReadBDADDR())
                    #expect(answer.address == address)
                }
            }
            group.addTask {
                for _ in 0..<300 {
                    let answer = try await host.send(ReadLocalVersionInformation())
                    #expect(answer == version)
                }
            }
            group.addTask {
                for _ in 0..<300 {
                    let answer = try await host.send(ReadLocalSupportedCommands())
                    #expect(answer == commands)
                }
            }
            group.addTask {
                for _ in 0..<300 {
                    let answer = try await host.exchange(LEReadBufferSize().packet)
                    let decoded = try LEReadBufferSize.returnParameters(from: answer)
                    #expect(decoded == buffers)
                }
            }
            try await group.waitForAll()
        }
        await host.close()
    }

    @Test func aSendAfterCloseIsRefusedWithTheReason() async throws {
        let host = try await Controller.open(LoopbackLink().addController().specification)
        await host.close()
        do {
            _ = try await host.send(ReadBDADDR())
            Issue.record("a closed host sent Read BD_ADDR")
        } catch {
            #expect(error == .closed)
        }
        do {
            _ = try await host.exchange(ReadBDADDR().packet)
            Issue.record("a closed host exchanged Read BD_ADDR")
        } catch {
            #expect(error == .closed)
        }
    }
}
