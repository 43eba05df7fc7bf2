import SwiftATTCore
import SwiftATTCrypto
import SwiftATTHCI

/// LL Privacy (Core 5.4 Vol 6 Part B §6; Vol 4 Part E §7.8.38–§7.8.45, §7.8.77): each
/// emulated controller keeps a resolving list its host programs and, with address
/// resolution on, hears a listed peer's resolvable private addresses as its identity —
/// in advertising reports, when initiating, and in LE Enhanced Connection Complete —
/// so that in-process tests exercise a host's controller path.
///
/// What it leaves out: it never generates resolvable private addresses itself (own
/// address types 0x02 and 0x03 use the public or random address, as without an entry),
/// so RPA_Timeout is kept and not used, and LE Read Peer/Local Resolvable Address are
/// not implemented (Unknown HCI Command; Bumble's controller never answers them).
extension LinkState {
    /// The resolving-list commands answered, when the controller has LL Privacy.
    static let privacyCommands: [HCISupportedCommands.Command] = [
        .leAddDeviceToResolvingList, .leRemoveDeviceFromResolvingList, .leClearResolvingList, .leReadResolvingListSize,
        .leSetAddressResolutionEnable, .leSetResolvablePrivateAddressTimeout, .leSetPrivacyMode,
    ]

    /// The resolving-list commands; false for any other opcode, or when a test took LL
    /// Privacy away (then they are unknown).
    mutating func executePrivacy(_ command: HCICommandPacket, from index: Int) -> Bool {
        guard controllers[index].harness.linkLayerPrivacy else { return false }
        let p = command.parameters
        let opcode = command.opcode
        switch opcode {
        case LEAddDeviceToResolvingList.opcode:
            guard let c = try? LEAddDeviceToResolvingList(parameters: p) else { invalid(opcode, to: index); return true }
            if controllers[index].resolvingListLocked { fail(opcode, .commandDisallowed, to: index); return true }
            if controllers[index].resolvingList.contains(where: { $0.peerIdentity == c.peerIdentityAddress }) {
                fail(opcode, .invalidCommandParameters, to: index)
            } else if controllers[index].resolvingList.count >= controllers[index].harness.resolvingListCapacity {
                fail(opcode, .memoryCapacityExceeded, to: index)
            } else {
                controllers[index].resolvingList.append(LoopbackResolvingListEntry(
                    peerIdentity: c.peerIdentityAddress, peerIdentityResolvingKey: c.peerIdentityResolvingKey,
                    localIdentityResolvingKey: c.localIdentityResolvingKey))
                succeed(opcode, to: index)
            }
        case LERemoveDeviceFromResolvingList.opcode:
            guard let c = try? LERemoveDeviceFromResolvingList(parameters: p) else { invalid(opcode, to: index); return true }
            if controllers[index].resolvingListLocked { fail(opcode, .commandDisallowed, to: index); return true }
            guard let i = controllers[index].resolvingList.firstIndex(where: { $0.peerIdentity == c.peerIdentityAddress }) else {
                fail(opcode, .unknownConnectionIdentifier, to: index)
                return true
            }
            controllers[index].resolvingList.remove(at: i)
            succeed(opcode, to: index)
        case LEClearResolvingList.opcode:
            if controllers[index].resolvingListLocked { fail(opcode, .commandDisallowed, to: index); return true }
            controllers[index].resolvingList.removeAll()
            succeed(opcode, to: index)
        case LEReadResolvingListSize.opcode:
            complete(LEReadResolvingListSize.self, .init(
                status: .success, resolvingListSize: UInt8(clamping: controllers[index].harness.resolvingListCapacity)), to: index)
        case LESetAddressResolutionEnable.opcode:
            guard let c = try? LESetAddressResolutionEnable(parameters: p) else { invalid(opcode, to: index); return true }
            if controllers[index].isRadioBusy { fail(opcode, .commandDisallowed, to: index); return true }
            controllers[index].addressResolution = c.addressResolutionEnable
            succeed(opcode, to: index)
        case LESetResolvablePrivateAddressTimeout.opcode:
            guard let c = try? LESetResolvablePrivateAddressTimeout(parameters: p),
                  LESetResolvablePrivateAddressTimeout.validTimeouts.contains(c.rpaTimeout) else { invalid(opcode, to: index); return true }
            controllers[index].rpaTimeout = c.rpaTimeout
            succeed(opcode, to: index)
        case LESetPrivacyMode.opcode:
            guard let c = try? LESetPrivacyMode(parameters: p) else { invalid(opcode, to: index); return true }
            if controllers[index].resolvingListLocked { fail(opcode, .commandDisallowed, to: index); return true }
            guard let i = controllers[index].resolvingList.firstIndex(where: { $0.peerIdentity == c.peerIdentityAddress }) else {
                fail(opcode, .unknownConnectionIdentifier, to: index)
                return true
            }
            controllers[index].resolvingList[i].privacyMode = c.privacyMode
            succeed(opcode, to: index)
        default:
            return false
        }
        return true
    }
}

/// How a controller hears a peer's address (Vol 6 Part B §6.2–§6.3).
enum HeardAddress: Equatable {
    /// As it is: resolution is off, or the address is nobody's in the list.
    case plain(BluetoothAddress)
    /// A listed peer's resolvable private address, resolved to its identity.
    case resolved(identity: BluetoothAddress, privateAddress: BluetoothAddress)
    /// A listed peer in network privacy mode showing its identity address: ignored.
    case ignored

    /// The address and Address_Type events name the peer by.
    var reported: (address: BluetoothAddress, type: LEAddressType)? {
        switch self {
        case let .plain(address): return (address, LEAddressType(address.kind))
        case let .resolved(identity, _): return (identity, identity.kind == .public ? .publicIdentity : .randomIdentity)
        case .ignored: return nil
        }
    }
}

extension EmulatedController {
    /// The list may change only with resolution off or the radio idle (§7.8.38).
    var resolvingListLocked: Bool { addressResolution && isRadioBusy }

    /// Advertising, scanning or initiating.
    var isRadioBusy: Bool { isAdvertising || isScanning || initiating != nil }

    /// How this controller hears `address` on the air.
    func hear(_ address: BluetoothAddress) -> HeardAddress {
        guard addressResolution else { return .plain(address) }
        if address.kind == .random, address.randomSubtype == .resolvablePrivate {
            let prand = UInt32(truncatingIfNeeded: address.value >> 24)
            let hash = UInt32(truncatingIfNeeded: address.value & 0xFF_FFFF)
            for entry in resolvingList where entry.peerIdentityResolvingKey != 0 {
                if SecurityFunctions.ah(irk: entry.peerIdentityResolvingKey, prand: prand) == hash {
                    return .resolved(identity: entry.peerIdentity, privateAddress: address)
                }
            }
            return .plain(address)
        }
        if let entry = resolvingList.first(where: { $0.peerIdentity == address }),
           entry.peerIdentityResolvingKey != 0, entry.privacyMode == .network {
            return .ignored
        }
        return .plain(address)
    }

    /// Whether an LE Create Connection's peer (address and type) is the advertiser at
    /// `address`: an identity type names a listed peer under any address it resolves from.
    func targets(_ request: LECreateConnection, at address: BluetoothAddress) -> Bool {
        let heard = hear(address)
        switch (request.peerAddressType, heard) {
        case (_, .ignored):
            return false
        case let (.publicIdentity, .resolved(identity, _)), let (.randomIdentity, .resolved(identity, _)):
            return identity == request.peerAddress
        default:
            return address == request.peerAddress
        }
    }
}
