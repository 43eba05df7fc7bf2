import SwiftATTCore
import SwiftATTHCI

/// A packet waiting for a host to take it. ACL data carries the credit it owes: when
/// the receiving host has taken the packet, the sending controller's buffer is free.
struct Delivery: Sendable {
    var packet: HCIPacket
    var credit: Credit?
    /// The packet's bytes came from the link's pool (`LinkState.completedPacketsEvent`):
    /// the host hands them back once it has handled the packet.
    var recycles = false

    struct Credit: Sendable {
        /// The controller whose buffer the packet occupies.
        var controller: Int
        /// The connection it was sent on (credits of a closed connection are void: its
        /// buffers were freed at disconnection).
        var connection: Int
        /// The handle the sending host used.
        var handle: UInt16
    }
}

/// One emulated controller's state: addresses, legacy advertising and scanning, a
/// pending LE Create Connection, its resolving list, its ACL buffers, and the packets
/// waiting for its host.
struct EmulatedController: Sendable {
    let publicAddress: BluetoothAddress
    var randomAddress = BluetoothAddress(0, kind: .random)

    /// The attached transport's wake-up pipe; nil when no host is attached.
    var wakePipe: WakePipe?
    var inbox: [Delivery] = []

    var advertisingParameters = LESetAdvertisingParameters(advertisingIntervalMin: 0x0800, advertisingIntervalMax: 0x0800, ownAddressType: .public)
    var advertisingData: [UInt8] = []
    var scanResponseData: [UInt8] = []
    var isAdvertising = false

    var scanParameters = LESetScanParameters(scanType: .passive, scanInterval: 0x10, scanWindow: 0x10, ownAddressType: .public)
    var isScanning = false

    var initiating: LECreateConnection?

    /// LL Privacy (`LinkState+Privacy`): the resolving list, whether resolution is on,
    /// and the RPA_Timeout the host set.
    var resolvingList: [LoopbackResolvingListEntry] = []
    var addressResolution = false
    var rpaTimeout: UInt16 = 0x0384

    /// Controller buffers holding ACL data a host sent and the peer has not yet taken.
    var buffersInUse = 0
    /// Connection handle → connection id, for this controller's side of each link.
    var handles: [UInt16: Int] = [:]
    /// What a test configured and can observe; HCI_Reset keeps it.
    var harness = Harness()

    /// Faults a test gives this controller, and what it counts for the test to check.
    struct Harness: Sendable {
        /// Commands taken and never answered (as Bumble does with LE Set PHY, BENCH.md
        /// quirk 1): the host's command credit stays spent until its timeout.
        var unanswered: Set<HCIOpcode> = []
        /// Commands received from the host, by opcode (unanswered ones included).
        var commandCounts: [HCIOpcode: Int] = [:]
        /// The next encryption start or refresh on one of this controller's links fails
        /// its MIC check whatever keys the hosts give (`LoopbackController.failNextEncryption`).
        var failNextEncryption = false
        /// The controller has LL Privacy (feature bit and resolving-list commands).
        var linkLayerPrivacy = true
        /// Entries the resolving list holds (LE Read Resolving List Size).
        var resolvingListCapacity = 8
    }

    init(publicAddress: BluetoothAddress) {
        self.publicAddress = publicAddress
    }

    /// The address this controller advertises with (Own_Address_Type).
    var advertisingAddress: BluetoothAddress {
        address(for: advertisingParameters.ownAddressType)
    }

    func address(for type: LEOwnAddressType) -> BluetoothAddress {
        switch type {
        case .public, .resolvablePrivateOrPublic: return publicAddress
        case .random, .resolvablePrivateOrRandom: return randomAddress
        }
    }

    /// Whether a central may connect to this controller now (connectable undirected
    /// advertising: ADV_IND).
    var isConnectable: Bool { isAdvertising && advertisingParameters.advertisingType == .advInd }

    /// What HCI_Reset leaves: no advertising, scanning, initiating, addresses, data or
    /// resolving list, address resolution off.
    /// Connections are ended by the link, which owns both sides of each.
    mutating func reset() {
        self = EmulatedController(publicAddress: publicAddress, wakePipe: wakePipe, inbox: inbox, harness: harness)
    }

    private init(publicAddress: BluetoothAddress, wakePipe: WakePipe?, inbox: [Delivery], harness: Harness) {
        self.publicAddress = publicAddress
        self.wakePipe = wakePipe
        self.inbox = inbox
        self.harness = harness
    }
}

/// One connection between two controllers on the link. Both sides use the same handle
/// value (handles come from one counter per link), so ACL data crosses without its
/// header being rewritten.
struct LoopbackConnection: Sendable {
    let id: Int
    let handle: UInt16
    let central: Int
    let peripheral: Int
    var parameters: LEConnectionParameters
    /// Link-layer encryption, started by the central's host (`LinkState+Encryption`).
    var encryption = LinkEncryption()
    /// ACL packets each side's host sent that still hold a buffer (two counters, not a
    /// table: they change on every packet, in place).
    private(set) var centralInFlight = 0
    private(set) var peripheralInFlight = 0

    func other(than controller: Int) -> Int { controller == central ? peripheral : central }

    /// Buffers the packets of `controller`'s host on this connection hold.
    func inFlight(from controller: Int) -> Int {
        controller == central ? centralInFlight : controller == peripheral ? peripheralInFlight : 0
    }

    mutating func addInFlight(_ delta: Int, from controller: Int) {
        if controller == central { centralInFlight += delta } else if controller == peripheral { peripheralInFlight += delta }
    }
}
