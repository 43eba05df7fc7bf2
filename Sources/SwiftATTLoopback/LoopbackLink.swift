#if canImport(Glibc)
import Glibc
#endif
import SwiftATTCore
import SwiftATTHCI
import Synchronization
import SwiftATTTransport

/// An in-memory radio joining emulated LE controllers, so that several swift-att hosts
/// in one process can advertise, scan, connect and exchange ACL data without sockets,
/// Python or a kernel: a fast end-to-end fixture for tests and the host benchmark.
///
///     let link = LoopbackLink()
///     let peripheral = try await Peripheral.start(transport: link.addController().specification, database: db)
///     let central = try await Central.start(transport: link.addController().specification)
///
/// Each controller answers the legacy commands a host needs (start-up, legacy
/// advertising and scanning, LE Create Connection, Disconnect, LE Connection Update,
/// LE Rand, link encryption started by the central and keyed by the peripheral's host,
/// and the resolving list with address resolution; Core 5.4 Vol 4 Part E §7) and nothing
/// else (Unknown HCI Command), and says so in its supported-commands bitmap. ACL data crosses in memory with real buffer accounting: a
/// packet holds one of its sender's controller buffers until the receiving host has
/// taken it, and only then does Number Of Completed Packets return the credit (§4.1.1).
/// So a slow receiver slows its sender, as over the air, unlike Bumble's controllers
/// (BENCH.md quirk 9). Everything is immediate: advertisements are reported when scanning
/// or advertising starts, a connection completes as soon as initiator and advertiser
/// meet; there are no timers.
public final class LoopbackLink: Sendable {
    let state: Mutex<LinkState>

    /// Every controller reports `aclBufferLength` octets × `aclBufferCount` LE ACL
    /// buffers (LE Read Buffer Size). 251 carries a 244-octet notification (ATT_MTU 247)
    /// in one packet.
    public init(aclBufferLength: Int = 251, aclBufferCount: Int = 16) {
        state = Mutex(LinkState(bufferLength: max(27, min(aclBufferLength, 0xFFFF)), bufferCount: max(1, min(aclBufferCount, 255))))
    }

    /// A new controller on this radio, with a distinct public address.
    public func addController() -> LoopbackController {
        let (index, address) = state.withLock { s in
            let index = s.controllers.count
            let address = BluetoothAddress(0xF0F0_F0F0_0000 | UInt64(index + 1), kind: .public)
            s.controllers.append(EmulatedController(publicAddress: address))
            return (index, address)
        }
        return LoopbackController(link: self, index: index, publicAddress: address)
    }

    /// Runs `body` under the link's lock, then wakes the hosts it queued packets for.
    func update<R: Sendable, E: Error>(_ body: (inout LinkState) throws(E) -> R) throws(E) -> R {
        let (result, wakes) = try state.withLock { (s: inout LinkState) throws(E) -> (R, WakeList) in
            let result = try body(&s)
            guard !s.wakes.isEmpty else { return (result, WakeList()) }
            defer { s.wakes = WakeList() }
            return (result, s.wakes)
        }
        // Each pipe stays open while this holds it, whoever closes its transport now.
        wakes.wakeAll()
        return result
    }

    /// What the link has carried and refused so far.
    public var statistics: LoopbackStatistics { state.withLock { $0.statistics } }

    /// Live connections, counted once per link (not per side).
    public var connectionCount: Int { state.withLock { $0.connections.count } }

    /// Where the encryption of the connection with `handle` stands (both sides use the
    /// same handle); nil when no live connection has it.
    public func encryption(ofConnection handle: UInt16) -> LoopbackEncryption? {
        state.withLock { s in s.connections.values.first { $0.handle == handle }?.encryption.state }
    }
}

/// Counters a test or benchmark reads to check the link was used as intended.
public struct LoopbackStatistics: Sendable, Hashable {
    /// ACL packets handed from one host to the other.
    public var aclForwarded = 0
    /// ACL packets for a handle the sending controller does not know (dropped silently,
    /// as controllers do after a disconnection).
    public var aclUnknownHandle = 0
    /// ACL packets a host sent without a free buffer, or longer than the buffer: a host
    /// flow-control bug. Answered with Data Buffer Overflow and dropped.
    public var bufferOverflows = 0
    /// The most buffers one controller had occupied at once.
    public var peakBuffersInUse = 0
    /// Number Of Completed Packets events sent.
    public var completedPacketsEvents = 0
    /// Connections made since the link was created.
    public var connectionsMade = 0
}
