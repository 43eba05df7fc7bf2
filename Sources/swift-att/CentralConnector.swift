import SwiftATTAdvertising
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost
import SwiftATTL2CAP

/// Finds the device a `swift-att central` action (or `l2cap connect`) names, connects,
/// and resolves the characteristics a central action names.
///
/// A device is named by its address (`C0:B0:00:00:00:0A`, either address type), or by a
/// piece of its advertised name (case-insensitive), or not at all: then it is the first
/// that advertises one of `--service` (or the seed flow's service). Progress goes to
/// standard error, so standard output keeps only results.
struct CentralConnector {
    /// Which device, and how to look for it and connect.
    struct Search: Sendable {
        /// The command, for its usage errors (`central discover`, `l2cap connect`).
        var command: String
        /// An address, or a piece of the name; `nil` finds the device by `services`.
        var target: String?
        var services: [BluetoothUUID] = []
        var name: String?
        var minimumRSSI: Int8?
        var passive = false
        var scanTimeout: Duration = .seconds(10)
        /// What the link must reach before `connect` returns.
        var security = AttributePermissions.Access.open
        /// Whether `connect` negotiates the ATT_MTU before it returns: a central action
        /// talks ATT, but `l2cap connect` opens a channel and must not wait on a peer
        /// that serves no ATT (the Linux kernel without bluetoothd never answers, and
        /// drops the idle link first).
        var exchangeMTU = true
        /// `--eatt N`: Enhanced ATT bearers `connect` opens before it returns.
        var enhancedBearers: Int?
    }

    let search: Search
    let central: Central

    func connect(defaultServices: [BluetoothUUID], report: EventReport) async throws(CommandError) -> Peer {
        let device = try await find(defaultServices: defaultServices)
        let name = device.data.localName?.name
        Output.progress("connecting to \(device.address)\(name.map { " (\($0))" } ?? "")…")
        let peer: Peer
        do {
            peer = try await central.connect(device.address, exchangeMTU: search.exchangeMTU, security: search.security)
        } catch {
            throw CentralSession.failure("connecting to \(device.address)", error)
        }
        let mtu = await peer.mtu
        let summary = "connected to \(device.address)\(name.map { " \(EventReport.quoted($0))" } ?? ""), ATT_MTU \(mtu)"
        if report.json {
            report.emit(summary, ["event": "connected", "address": .string(device.address.description),
                                  "name": name.map { .string($0) } ?? .null, "mtu": .integer(mtu)])
        } else {
            Output.progress(summary)
        }
        if let count = search.enhancedBearers { try await openEnhancedBearers(count, on: peer, report: report) }
        return peer
    }

    /// `--eatt N`: opens N Enhanced ATT bearers beside the unenhanced one (pairing or
    /// encrypting first when the device asks for it) and says how many opened, with
    /// their ATT_MTUs; the action's procedures then spread over them. A device that
    /// refuses them (it serves no Enhanced ATT, or wants security `--no-pair` forbids)
    /// gets a warning, and the action goes on over the unenhanced bearer.
    func openEnhancedBearers(_ count: Int, on peer: Peer, report: EventReport) async throws(CommandError) {
        Output.progress("opening \(String(count: count, "Enhanced ATT bearer"))…")
        var refusal: L2CAPChannelError?
        do {
            try await peer.openEnhancedBearers(count)
        } catch {
            switch error {
            case .controllerStopped, .disconnected, .cancelled:
                throw L2CAPSession.failure("opening Enhanced ATT bearers", error)
            default:
                refusal = error
            }
        }
        // A refusal after some opened (a second request of five) leaves those open.
        let mtus = await peer.enhancedBearerMTUs
        var warning: String?
        if let refusal {
            let why = refusal == .refusedEnhanced(.spsmNotSupported) ? "it serves no Enhanced ATT (\(refusal))" : "\(refusal)"
            warning = "the device refused Enhanced ATT bearers: \(why); "
                + (mtus.isEmpty ? "going on over the unenhanced ATT bearer" : "going on with the \(mtus.count) open")
        } else if mtus.count < count {
            warning = "the device accepted \(mtus.count) of \(String(count: count, "Enhanced ATT bearer"))"
        }
        if let warning { Output.warning(warning) }
        let sizes = mtus.isEmpty ? "" : " (ATT_MTU \(Set(mtus).count == 1 ? "\(mtus[0]) each" : mtus.map(String.init).joined(separator: ", ")))"
        let summary = "\(String(count: mtus.count, "Enhanced ATT bearer")) open\(sizes)"
        if report.json {
            report.emit(summary, ["event": "enhanced-att", "requested": .integer(count), "opened": .integer(mtus.count),
                                  "mtus": .array(mtus.map { .integer($0) }),
                                  "warning": warning.map { .string($0) } ?? .null])
        } else if !mtus.isEmpty {
            Output.progress(summary)
        }
    }

    /// Scans until a device matches, or fails after `--timeout`.
    func find(defaultServices: [BluetoothUUID]) async throws(CommandError) -> DiscoveredDevice {
        var filter = ScanFilter(minimumRSSI: search.minimumRSSI)
        var wanted: String
        var address: BluetoothAddress?
        if let target = search.target, let parsed = BluetoothAddress(target) {
            address = parsed
            wanted = "device \(target)"
        } else if let target = search.target {
            filter.nameContains = target
            wanted = "a device named like \(EventReport.quoted(target))"
        } else {
            filter.services = search.services.isEmpty ? defaultServices : search.services
            guard !filter.services.isEmpty else {
                throw .usage("\(search.command): name the device (an address or part of its name), or give --service")
            }
            wanted = "a device advertising " + filter.services.map { describe($0) }.joined(separator: " or ")
        }
        if let name = search.name {
            filter.nameContains = name
            wanted += " named like \(EventReport.quoted(name))"
        }
        Output.progress("scanning for \(wanted)…")
        let timeout = search.scanTimeout
        let wantedAddress = address
        let found: DiscoveredDevice?
        do {
            found = try await central.firstDevice(filter, active: !search.passive, within: timeout) { device in
                // A bonded device may advertise under a resolvable private address: its
                // identity address finds it too.
                wantedAddress.map { $0.value == device.address.value || $0 == device.identity } ?? true
            }
        } catch {
            throw .failure("scanning: \(error)")
        }
        guard let found else {
            throw .peer("no \(wanted.hasPrefix("a ") ? String(wanted.dropFirst(2)) : wanted) found in \(timeout) of scanning")
        }
        return found
    }

    func describe(_ uuid: BluetoothUUID) -> String {
        let name = CentralSession.names[uuid] ?? uuid.assignedName
        return name.map { "\(uuid) (\($0))" } ?? uuid.description
    }

    /// A device as the command line names it: an address, or a piece of its name. A
    /// word shaped like an address (six groups between colons) that is not one is a
    /// mistake to name at once, not a name to scan for.
    static func device(_ word: String, command: String) throws(CommandError) -> String {
        if BluetoothAddress(word) == nil, word.split(separator: ":", omittingEmptySubsequences: false).count == 6 {
            throw .usage("\(command): '\(word)' is not a Bluetooth address (six hex octets: C0:B0:00:00:00:0A)")
        }
        return word
    }

    /// How the command line names a characteristic.
    enum CharacteristicReference: Equatable {
        /// The first characteristic with this UUID.
        case uuid(BluetoothUUID)
        /// The characteristic with this value or declaration handle.
        case handle(UInt16)
    }

    /// `spec` read as a characteristic UUID (`2A37`) or handle (`0x0012`), or a usage
    /// error naming it: checked before any radio work, and again where it is resolved.
    static func characteristicReference(_ spec: String) throws(CommandError) -> CharacteristicReference {
        if spec.lowercased().hasPrefix("0x"), let handle = UInt16(spec.dropFirst(2), radix: 16) {
            guard handle > 0 else { throw .usage("'\(spec)' is not a handle: handles run from 0x0001 to 0xFFFF") }
            return .handle(handle)
        }
        guard let uuid = BluetoothUUID(spec) ?? CharacteristicNames.uuidsBySlug[spec.lowercased()] else {
            throw .usage("'\(spec)' is neither a characteristic UUID (2A37, 713d0003-503e-4c75-ba94-3148f18d941e), "
                         + "a characteristic's name (heart-rate-measurement) nor a handle (0x0001 to 0xFFFF)")
        }
        return .uuid(uuid)
    }

    /// The characteristic `spec` names in `database`: a UUID (the first with it) or a
    /// handle (`0x0012`: its value or declaration handle).
    static func characteristic(_ spec: String, in database: GATTClientDatabase) throws(CommandError) -> GATTClient.Characteristic {
        let all = database.services.flatMap { $0.characteristics.map(\.characteristic) }
        let uuid: BluetoothUUID
        switch try characteristicReference(spec) {
        case let .handle(handle):
            if let found = all.first(where: { $0.valueHandle == handle || $0.declarationHandle == handle }) { return found }
            throw .input("no characteristic at handle \(spec) (value handles: \(all.map { Hex.handle($0.valueHandle) }.joined(separator: ", ")))")
        case let .uuid(named):
            uuid = named
        }
        if let found = all.first(where: { $0.uuid == uuid }) { return found }
        let known = all.map { $0.uuid.description }.joined(separator: ", ")
        throw .input("the device has no characteristic \(uuid) (it has: \(known.isEmpty ? "none" : known))")
    }
}
