import SwiftATTCore
import SwiftATTHCI

/// What has to happen before the controller starts advertising, scanning or initiating,
/// in one place: the only moments the host may change its resolving list or its random
/// address are while none of the three runs (Core 5.4 Vol 4 Part E §7.8.4, §7.8.38,
/// §7.8.44 answer Command Disallowed otherwise), and a radio start is when a new one
/// would first be used. `startAdvertising`, `startScanning`, `Central.scan` and
/// `createConnection` call `prepareRadioStart` before their enabling commands.
///
/// The resolving list follows the bonds: programmed again with LE Clear Resolving List
/// and one LE Add Device To Resolving List per entry, never LE Remove Device From
/// Resolving List, which Bumble's virtual controller (0.0.236) lists and never answers.
/// That controller sets LL Privacy (feature bit 6) and lists all nine commands; it
/// answers Add, Clear, Read Resolving List Size (8), Set Address Resolution Enable, Set
/// Resolvable Private Address Timeout and Set Privacy Mode with Success, but keeps no
/// entries and resolves nothing; Remove and Read Peer and Local Resolvable Address get
/// no answer at all (its Python host library has no class for them). Over it the host
/// programs the list and resolves every address itself, as it does for bonds the list
/// has no room for; each list command is bounded (`resolvingListCommandTimeout`), and
/// one left unanswered hands resolution to the host for good.
extension Controller {
    /// How long a resolving-list command may go unanswered (BENCH.md quirk 1): a
    /// controller that leaves one unanswered is left to the host's resolution.
    static let resolvingListCommandTimeout: Duration = .seconds(1)

    /// Brings the resolving list in step with the bonds and renews our private address
    /// when it has expired; returns the address to advertise, scan and connect from.
    func prepareRadioStart() async -> BluetoothAddress? {
        await programResolvingList()
        return await ownAddress()
    }

    /// Who resolves peers' private addresses now.
    public var addressResolution: AddressResolution {
        resolvingList.withLock { state in
            guard let state, !state.abandoned else { return .host }
            return .controller(capacity: state.capacity)
        }
    }

    /// The entries the host has put in the controller's resolving list, in order (empty
    /// when the host resolves, or before the first radio start after a bond).
    public var resolvingListEntries: [ResolvingListEntry] {
        resolvingList.withLock { state in
            guard let state, !state.abandoned else { return [] }
            return state.programmed ?? []
        }
    }

    /// The resolvable private address in use (privacy on, after the first radio
    /// start); nil while the static random address is.
    public var resolvablePrivateAddress: BluetoothAddress? {
        securitySettings.withLock { $0.privateAddress?.address }
    }

    /// The commands the controller path needs. LE Set Privacy Mode among them: in the
    /// default network privacy mode a controller ignores a listed peer that shows its
    /// identity address (Vol 6 Part B §4.7), which a bonded device without privacy —
    /// swift-att's own peripheral, by default — always does.
    static let resolvingListCommands: [HCISupportedCommands.Command] = [
        .leAddDeviceToResolvingList, .leClearResolvingList, .leReadResolvingListSize,
        .leSetAddressResolutionEnable, .leSetPrivacyMode,
    ]

    /// At start-up: the resolving list's size when the controller can resolve (LL
    /// Privacy and the commands above), nil when the host will.
    func readResolvingListSize(_ commands: HCISupportedCommands, _ features: LEFeatures) async -> Int? {
        guard features.contains(.llPrivacy), Self.resolvingListCommands.allSatisfy(commands.supports) else { return nil }
        guard let answer = try? await send(LEReadResolvingListSize(), timeout: Self.resolvingListCommandTimeout),
              answer.resolvingListSize > 0 else { return nil }
        return Int(answer.resolvingListSize)
    }

    /// The start-up sequence ran: address resolution is off (Reset) and what the list
    /// holds is unknown.
    func resetResolvingList(capacity: Int?) {
        resolvingList.withLock { state in
            guard let capacity else { return state = nil }
            var fresh = ResolvingListState(capacity: capacity)
            fresh.programmed = nil
            state = fresh
        }
    }

    /// Programs the resolving list for the bonds when they changed since the last time:
    /// resolution off, Clear, Add and Set Privacy Mode (device) per entry, resolution on.
    /// A controller busy advertising, scanning or initiating refuses (Command
    /// Disallowed): the next radio start tries again. Any other failure leaves address
    /// resolution off and the host resolving.
    func programResolvingList() async {
        let store = bonds
        let localIRK = securityConfiguration.pairing.identity?.identityResolvingKey
        let wanted = ResolvingListEntry.entries(for: store.bonds, localIRK: localIRK)
        let claimed = resolvingList.withLock { state -> ResolvingListState? in
            guard var current = state, !current.isProgramming, current.needsProgramming(for: wanted) else { return nil }
            current.isProgramming = true
            state = current
            return current
        }
        guard let claimed else { return }
        var programmed = claimed.programmed
        var enabled = claimed.resolutionEnabled
        var abandoned = false
        do throws(ControllerError) {
            if enabled {
                try await sendListCommand(LESetAddressResolutionEnable(addressResolutionEnable: false))
                enabled = false
            }
            programmed = nil
            try await sendListCommand(LEClearResolvingList())
            var added: [ResolvingListEntry] = []
            for entry in claimed.fitting(wanted) {
                do throws(ControllerError) {
                    try await sendListCommand(LEAddDeviceToResolvingList(
                        peerIdentityAddress: entry.peerIdentity, peerIdentityResolvingKey: entry.peerIdentityResolvingKey,
                        localIdentityResolvingKey: entry.localIdentityResolvingKey))
                } catch .hci(.commandFailed(_, .memoryCapacityExceeded)) {
                    // Fuller than it said (the list may share memory, §7.8.41): the host resolves the rest.
                    break
                }
                try await sendListCommand(LESetPrivacyMode(peerIdentityAddress: entry.peerIdentity, privacyMode: .device))
                added.append(entry)
            }
            if !added.isEmpty {
                try await sendListCommand(LESetAddressResolutionEnable(addressResolutionEnable: true))
                enabled = true
            }
            programmed = added
        } catch .hci(.commandFailed(_, .commandDisallowed)) {
            // Busy: what was done stands, and the next radio start finishes it.
        } catch {
            abandoned = true
        }
        resolvingList.withLock { state in
            state?.programmed = programmed
            state?.resolutionEnabled = enabled
            state?.isProgramming = false
            if abandoned { state?.abandoned = true }
        }
    }

    private func sendListCommand<C: HCICommand>(_ command: C) async throws(ControllerError) {
        _ = try await send(command, timeout: Self.resolvingListCommandTimeout)
    }
}
