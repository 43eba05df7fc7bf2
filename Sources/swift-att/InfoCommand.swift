import SwiftATTJSON
import SwiftATTHCI
import SwiftATTHost

/// `swift-att info --transport T [--btsnoop FILE] [--bonds FILE] [--json]`: opens a
/// controller, runs the start-up sequence and prints what it learned, like `btmgmt info`
/// / `hciconfig -a`. The random address is the adapter's identity from the bond file, as
/// central and peripheral use it (made there on first use).
enum InfoCommand {
    static func run(_ arguments: [String]) async throws(CommandError) -> Int32 {
        let args = try Arguments(arguments, flags: ["--json"], options: ["--transport", "--btsnoop", "--round-trips", BondsFileOption.name],
                                 command: "info")
        if args.wantsHelp {
            Output.print(Usage.info)
            return 0
        }
        guard args.positionals.isEmpty else { throw .usage("info: unexpected argument '\(args.positionals[0])'") }
        let specification = try ControllerSession.specification(args)
        let roundTrips = try args.option("--round-trips").map { (text) throws(CommandError) in try RoundTripTiming.count(text) }
        let controller = try await ControllerSession.open(specification, capture: args.option("--btsnoop"))
        let bonds = CommandBondFile(path: BondsFileOption.path(args))
        defer { bonds.close() }
        let info: ControllerInfo
        var timing: RoundTripTiming?
        do {
            info = try await controller.start(storage: bonds)
            if let roundTrips { timing = try await RoundTripTiming.measure(controller, count: roundTrips) }
        } catch {
            await controller.close()
            throw bonds.commandError(error)
        }
        await controller.close()
        if args.has("--json") {
            Output.print(json(info, transport: specification.description, bonds: bonds.path))
        } else {
            Output.print(text(info, transport: specification.description, bonds: bonds.path))
        }
        if let timing { Output.print(timing.text) }
        return 0
    }

    /// `5.2`, from the HCI/LMP version number (Assigned Numbers, Core Specification).
    static func coreVersion(_ v: UInt8) -> String {
        let names: [UInt8: String] = [6: "4.0", 7: "4.1", 8: "4.2", 9: "5.0", 10: "5.1", 11: "5.2", 12: "5.3", 13: "5.4", 14: "6.0"]
        return names[v] ?? "unknown"
    }

    static let featureNames: [(LEFeatures, String)] = [
        (.leEncryption, "LE Encryption"), (.connectionParametersRequestProcedure, "Connection Parameters Request"),
        (.extendedRejectIndication, "Extended Reject Indication"), (.peripheralInitiatedFeaturesExchange, "Peripheral-initiated Features Exchange"),
        (.lePing, "LE Ping"), (.leDataPacketLengthExtension, "LE Data Packet Length Extension"), (.llPrivacy, "LL Privacy"),
        (.extendedScannerFilterPolicies, "Extended Scanner Filter Policies"), (.le2MPHY, "LE 2M PHY"),
        (.leCodedPHY, "LE Coded PHY"), (.leExtendedAdvertising, "LE Extended Advertising"),
        (.lePeriodicAdvertising, "LE Periodic Advertising"), (.channelSelectionAlgorithm2, "Channel Selection Algorithm #2"),
    ]

    static func features(_ f: LEFeatures) -> [String] { featureNames.filter { f.contains($0.0) }.map(\.1) }

    static func text(_ info: ControllerInfo, transport: String, bonds: String) -> String {
        let v = info.version
        var t = FieldsText(title: "Controller on \(transport)")
        t.field("HCI version", "\(coreVersion(v.hciVersion)) (0x\(String(v.hciVersion, radix: 16))), revision 0x\(String(v.hciSubversion, radix: 16))")
        t.field("LMP version", "\(coreVersion(v.lmpVersion)) (0x\(String(v.lmpVersion, radix: 16))), subversion 0x\(String(v.lmpSubversion, radix: 16))")
        t.field("Manufacturer", "0x\(String(v.companyIdentifier, radix: 16).zeroPadded(to: 4))")
        t.field("Public address", info.publicAddress.value == 0 ? "none (00:00:00:00:00:00)" : info.publicAddress.description)
        t.field("Random address", "\(info.randomAddress) (static, this adapter's identity)")
        t.field("Bond file", bonds)
        t.field("LE ACL buffers", "\(info.aclBufferCount) × \(info.aclBufferLength) bytes")
        t.field("LE features", features(info.leFeatures).isEmpty ? ["none"] : features(info.leFeatures))
        t.field("Advertising", info.usesExtendedAdvertising ? "extended" : "legacy (no extended advertising commands listed)")
        t.field("Scanning", info.usesExtendedScanning ? "extended" : "legacy")
        t.field("Connecting", info.usesExtendedCreateConnection ? "extended" : "legacy")
        return t.rendered
    }

    static func json(_ info: ControllerInfo, transport: String, bonds: String) -> String {
        let v = info.version
        let object: JSONValue = .object([
            JSONMember("transport", .string(transport)),
            JSONMember("hciVersion", .integer(Int(v.hciVersion))),
            JSONMember("hciVersionName", .string(coreVersion(v.hciVersion))),
            JSONMember("hciSubversion", .integer(Int(v.hciSubversion))),
            JSONMember("lmpVersion", .integer(Int(v.lmpVersion))),
            JSONMember("lmpSubversion", .integer(Int(v.lmpSubversion))),
            JSONMember("companyIdentifier", .integer(Int(v.companyIdentifier))),
            JSONMember("publicAddress", .string(info.publicAddress.description)),
            JSONMember("randomAddress", .string(info.randomAddress.description)),
            JSONMember("bondFile", .string(bonds)),
            JSONMember("aclBufferLength", .integer(info.aclBufferLength)),
            JSONMember("aclBufferCount", .integer(info.aclBufferCount)),
            JSONMember("leFeatures", .integer(Int(truncatingIfNeeded: info.leFeatures.rawValue))),
            JSONMember("leFeatureNames", .array(features(info.leFeatures).map { .string($0) })),
            JSONMember("extendedAdvertising", .bool(info.usesExtendedAdvertising)),
            JSONMember("extendedScanning", .bool(info.usesExtendedScanning)),
            JSONMember("extendedCreateConnection", .bool(info.usesExtendedCreateConnection)),
        ])
        return object.serialized()
    }
}
