import SwiftATTHCI
import SwiftATTHost
import SwiftATTLoopback
import Testing

/// The host's `async` API runs on its caller's executor (`nonisolated(nonsending)`):
/// callers isolated to an actor — the main actor, one of their own — send command after
/// command, through layers of functions that run where they are called (with typed
/// throws, as the command-line tool's), and each answer comes back to them there.
@Suite struct ActorCallerTests {
    static let trips = 2000

    actor Owner {
        func sendAll(_ host: Controller) async throws -> Int {
            try await ActorCallerTests.layer(host, on: self)
        }
    }

    /// Layers of functions that run on their caller's executor, with typed throws.
    nonisolated(nonsending)
    static func layer(_ host: Controller, on owner: Owner) async throws(ControllerError) -> Int {
        owner.assertIsolated()
        return try await sendEach(host, checking: owner)
    }

    nonisolated(nonsending)
    static func sendEach(_ host: Controller, checking owner: (any Actor)?) async throws(ControllerError) -> Int {
        var answered = 0
        for _ in 0..<trips {
            _ = try await host.send(ReadBDADDR())
            // Still where the caller is, after every answer.
            owner?.assertIsolated()
            answered += 1
        }
        return answered
    }

    @MainActor
    static func sendAllOnMain(_ host: Controller) async throws -> Int {
        try await sendEach(host, checking: MainActor.shared)
    }

    /// Without an actor, on a task that prefers the loop: every `swift-att` command's case.
    static func sendAllPreferringTheLoop(_ host: Controller) async throws -> Int {
        try await withTaskExecutorPreference(host.eventLoop) {
            try await sendEach(host, checking: nil)
        }
    }

    @Test func anActorOfItsOwn() async throws {
        let host = try await Controller.open(LoopbackLink().addController().specification)
        #expect(try await Owner().sendAll(host) == Self.trips)
        await host.close()
    }

    @Test func theMainActor() async throws {
        let host = try await Controller.open(LoopbackLink().addController().specification)
        #expect(try await Self.sendAllOnMain(host) == Self.trips)
        await host.close()
    }

    @Test func noActorOnATaskThatPrefersTheLoop() async throws {
        let host = try await Controller.open(LoopbackLink().addController().specification)
        #expect(try await Self.sendAllPreferringTheLoop(host) == Self.trips)
        await host.close()
    }
}
