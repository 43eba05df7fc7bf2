import SwiftATTCore
import SwiftATTHCI
import SwiftATTTransport

/// One emulated controller on a `LoopbackLink`: what a host opens as its transport.
public struct LoopbackController: Sendable {
    /// The link this controller is on.
    public let link: LoopbackLink
    let index: Int
    /// The controller's public address (Read BD_ADDR); hosts advertise and connect
    /// with the static random address they set.
    public let publicAddress: BluetoothAddress

    /// The transport to give `Central.start` or `Peripheral.start`. One host at a time:
    /// opening it while another transport to this controller is open fails.
    public var specification: TransportSpecification {
        let link = self.link
        let index = self.index
        return .inProcess(InProcessTransportFactory(name: "loopback:\(index)") { () throws(TransportError) -> any HCITransport in
            try LoopbackTransport(link: link, index: index)
        })
    }

    /// Opens the transport directly, for tests that speak HCI themselves.
    public func open() throws(TransportError) -> any HCITransport {
        try LoopbackTransport(link: link, index: index)
    }
}

// MARK: Faults for tests

extension LoopbackController {
    /// Makes the controller fail: it loses its links and state and sends its host a
    /// Hardware Error event with `code` (Core 5.4 Vol 4 Part E §7.7.16).
    public func injectHardwareError(code: UInt8) {
        let index = self.index
        link.update { $0.hardwareError(index, code: code) }
    }

    /// From now on the controller takes these commands and never answers them (no
    /// Command Complete or Command Status), as some real controllers and Bumble's do
    /// (BENCH.md quirk 1). HCI_Reset does not undo it.
    public func leaveUnanswered(_ opcodes: Set<HCIOpcode>) {
        let index = self.index
        link.state.withLock { $0.controllers[index].harness.unanswered = opcodes }
    }

    /// The next encryption start or key refresh on one of this controller's links fails
    /// as if the two hosts' keys differed, whatever keys they give: once the peripheral's
    /// host replies with its key, both hosts get Disconnection Complete with Connection
    /// Terminated due to MIC Failure (Core 5.4 Vol 6 Part B §5.1.3.1). A negative reply
    /// leaves it armed. HCI_Reset does not undo it.
    public func failNextEncryption() {
        let index = self.index
        link.state.withLock { $0.controllers[index].harness.failNextEncryption = true }
    }

    /// How many commands with `opcode` the controller has received from its hosts.
    public func commandCount(_ opcode: HCIOpcode) -> Int {
        let index = self.index
        return link.state.withLock { $0.controllers[index].harness.commandCounts[opcode] ?? 0 }
    }
}

// MARK: LL Privacy

extension LoopbackController {
    /// The resolving list as the controller's host programmed it, in order.
    public var resolvingList: [LoopbackResolvingListEntry] {
        let index = self.index
        return link.state.withLock { $0.controllers[index].resolvingList }
    }

    /// Whether the controller resolves addresses now (LE Set Address Resolution Enable).
    public var resolvesAddresses: Bool {
        let index = self.index
        return link.state.withLock { $0.controllers[index].addressResolution }
    }

    /// Takes LL Privacy away, as from a controller older than Core 4.2: no feature bit 6,
    /// no resolving-list commands in the bitmap, Unknown HCI Command for each. Call before
    /// a host starts on it; HCI_Reset does not undo it.
    public func withholdLinkLayerPrivacy() {
        let index = self.index
        link.state.withLock { $0.controllers[index].harness.linkLayerPrivacy = false }
    }

    /// Makes the resolving list hold `capacity` entries (8 unless told), as LE Read
    /// Resolving List Size reports and LE Add Device To Resolving List enforces (Memory
    /// Capacity Exceeded beyond it). Call before a host starts on it.
    public func limitResolvingList(to capacity: Int) {
        let index = self.index
        link.state.withLock { $0.controllers[index].harness.resolvingListCapacity = max(0, min(capacity, 255)) }
    }
}
