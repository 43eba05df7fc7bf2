import SwiftATTCore
import SwiftATTHCI

extension Controller {
    /// The events the host handles (Core 5.4 Vol 4 Part E §7.3.1 and §7.8.1).
    static let eventMask: SetEventMask.Mask = [
        .disconnectionComplete, .encryptionChange, .readRemoteVersionInformationComplete,
        .hardwareError, .dataBufferOverflow, .encryptionKeyRefreshComplete, .leMeta,
    ]
    static let leEventMask: LESetEventMask.Mask = [
        .connectionComplete, .advertisingReport, .connectionUpdateComplete, .readRemoteFeaturesComplete,
        .longTermKeyRequest, .dataLengthChange, .enhancedConnectionComplete, .phyUpdateComplete,
        .extendedAdvertisingReport, .scanTimeout, .advertisingSetTerminated, .channelSelectionAlgorithm,
    ]

    /// A static random address (two most significant bits set; Core 5.4 Vol 6 Part B
    /// §1.3.2.1), fresh for this host.
    public static func makeStaticRandomAddress() -> BluetoothAddress {
        var value = UInt64.random(in: 0...0xFFFF_FFFF_FFFF) | 0xC000_0000_0000
        // Neither all ones nor all zeros in the random part.
        if value & 0x3FFF_FFFF_FFFF == 0x3FFF_FFFF_FFFF { value ^= 1 }
        if value & 0x3FFF_FFFF_FFFF == 0 { value |= 1 }
        return BluetoothAddress(value, kind: .random)
    }

    /// Resets the controller and reads what the host needs: version, supported
    /// commands and features, public address and ACL buffer sizes; sets the event masks
    /// and a static random address; starts ACL flow control. Every step that fails
    /// throws an error naming its command. From then on a Hardware Error event makes the
    /// host reset the controller and run this sequence again (`recoveries()`).
    public func start(randomAddress: BluetoothAddress? = nil) async throws(ControllerError) -> ControllerInfo {
        try await start(.given(randomAddress))
    }

    /// Starts as `start(randomAddress:)` does, with the identity `storage` keeps for
    /// this adapter (made on first use): its static random address is the one set, its
    /// IRK and address are distributed when pairing, and its bonds are the host's.
    /// Throws `.securityStorage` when the storage cannot give them.
    public func start(storage: any SecurityStorage) async throws(ControllerError) -> ControllerInfo {
        try await start(.stored(storage))
    }

    /// Where the static random address comes from.
    enum AddressSource {
        /// This address, or a fresh one when nil.
        case given(BluetoothAddress?)
        /// The identity the storage keeps for the adapter, known once Read BD_ADDR has
        /// named it.
        case stored(any SecurityStorage)

        /// The storage's identity, or a fresh address without one.
        init(_ storage: (any SecurityStorage)?) {
            self = storage.map { .stored($0) } ?? .given(nil)
        }
    }

    func start(_ address: AddressSource) async throws(ControllerError) -> ControllerInfo {
        _ = try await send(Reset(), timeout: .seconds(5))
        let info = try await initialize(address)
        await installRecovery()
        return info
    }

    /// The start-up sequence after HCI_Reset.
    func initialize(_ address: AddressSource) async throws(ControllerError) -> ControllerInfo {
        let version = try await send(ReadLocalVersionInformation())
        let commands = try await send(ReadLocalSupportedCommands()).supportedCommands
        let publicAddress = try await send(ReadBDADDR()).address
        let leFeatures = try await send(LEReadLocalSupportedFeatures()).leFeatures
        await quiesce(commands)
        let resolvingListSize = await readResolvingListSize(commands, leFeatures)

        var length = 0
        var count = 0
        if commands.supports(.leReadBufferSizeV2) {
            let v2 = try await send(LEReadBufferSizeV2())
            (length, count) = (Int(v2.leACLDataPacketLength), Int(v2.totalNumLEACLDataPackets))
        } else {
            let v1 = try await send(LEReadBufferSize())
            (length, count) = (Int(v1.leACLDataPacketLength), Int(v1.totalNumLEACLDataPackets))
        }
        if length == 0 || count == 0 {
            // The controller shares its BR/EDR buffers with LE (§7.8.2).
            let shared = try await send(ReadBufferSize())
            (length, count) = (Int(shared.aclDataPacketLength), Int(shared.totalNumACLDataPackets))
        }

        _ = try await send(SetEventMask(eventMask: Self.eventMask))
        _ = try await send(LESetEventMask(eventMask: Self.leEventMask))
        let random = try await staticRandomAddress(from: address, publicAddress: publicAddress)
        _ = try await send(LESetRandomAddress(randomAddress: random))
        forgetPrivateAddress()

        let info = ControllerInfo(
            version: version, supportedCommands: commands, leFeatures: leFeatures,
            publicAddress: publicAddress, randomAddress: random,
            aclBufferLength: length, aclBufferCount: count, resolvingListSize: resolvingListSize)
        resetResolvingList(capacity: resolvingListSize)
        await configureACL(bufferCount: count, bufferLength: length)
        await installSecurity(localAddress: random)
        remember(info)
        return info
    }

    /// The address to set: given, fresh, or the stored identity's (whose bonds the host
    /// then adopts).
    private func staticRandomAddress(from source: AddressSource,
                                     publicAddress: BluetoothAddress) async throws(ControllerError) -> BluetoothAddress {
        switch source {
        case let .given(address):
            return address ?? Self.makeStaticRandomAddress()
        case let .stored(storage):
            let adapter = AdapterIdentifier(publicAddress: publicAddress, transport: transportName)
            let stored: StoredSecurity
            do {
                stored = try storage.security(for: adapter)
            } catch {
                throw .securityStorage(error)
            }
            let address = stored.identity.address
            guard address.randomSubtype == .static else {
                throw .securityStorage(SecurityStorageError(
                    "the identity stored for \(adapter) has address \(address), which is not a static random address"))
            }
            await adopt(stored)
            return address
        }
    }

    /// Stops scanning and advertising a previous host may have left running. Reset
    /// should have (Core 5.4 Vol 4 Part E §7.3.2), but some controllers keep both across
    /// it (Bumble's virtual controller does, BENCH.md), and a scanning controller then
    /// refuses LE Set Random Address and the scan parameters with Command Disallowed.
    /// A refusal here means there was nothing to stop.
    func quiesce(_ commands: HCISupportedCommands) async {
        if commands.supports(.leSetExtendedScanEnable) {
            _ = try? await send(LESetExtendedScanEnable(enable: false))
        } else {
            _ = try? await send(LESetScanEnable(scanEnable: false))
        }
        if commands.supports(.leSetExtendedAdvertisingEnable) {
            _ = try? await send(LESetExtendedAdvertisingEnable(enable: false, sets: []))
        } else {
            _ = try? await send(LESetAdvertisingEnable(advertisingEnable: false))
        }
    }

    /// Starts host-to-controller ACL flow control with the controller's buffer sizes.
    func configureACL(bufferCount: Int, bufferLength: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.submit({ stack in
                stack.hci.configureACL(bufferCount: bufferCount, bufferLength: bufferLength)
                continuation.resume()
            }, refuse: { _ in continuation.resume() })
        }
    }
}
