/// A command on the kernel's Bluetooth management channel (`HCI_CHANNEL_CONTROL`), the
/// interface bluetoothd uses to find and power adapters. BlueZ doc/mgmt-api.txt.
///
/// Every packet is `opcode(2) index(2) length(2) parameters`, little-endian; commands that
/// concern no adapter use index 0xFFFF. Only what swift-att needs to find adapters is here:
/// the index list (to wait until the kernel has finished setting an adapter up) and
/// controller information (for `swift-att adapters`).
public struct ManagementCommand: Hashable, Sendable {
    /// "no adapter", for commands such as Read Controller Index List.
    public static let noIndex: UInt16 = 0xFFFF

    /// Which command.
    public var opcode: ManagementOpcode
    /// The adapter it concerns, or `noIndex`.
    public var index: UInt16
    /// The command's parameters, as doc/mgmt-api.txt lays them out.
    public var parameters: [UInt8]

    /// A command for adapter `index` (none by default).
    public init(_ opcode: ManagementOpcode, index: UInt16 = ManagementCommand.noIndex, parameters: [UInt8] = []) {
        self.opcode = opcode
        self.index = index
        self.parameters = parameters
    }

    /// Read Controller Index List (0x0003): the adapters the kernel has finished setting up
    /// and that no program holds on the user channel.
    public static let readIndexList = ManagementCommand(.readControllerIndexList)

    /// Read Controller Information (0x0004) for one adapter.
    public static func readInformation(index: UInt16) -> ManagementCommand {
        ManagementCommand(.readControllerInformation, index: index)
    }

    /// The packet's size: the 6-byte header and the parameters.
    public var encodedLength: Int { 6 + parameters.count }

    /// The packet as written to the socket (one command per `write`).
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encodedLength)
        for field in [opcode.rawValue, index, UInt16(parameters.count)] {
            bytes.append(UInt8(truncatingIfNeeded: field))
            bytes.append(UInt8(truncatingIfNeeded: field >> 8))
        }
        bytes.append(contentsOf: parameters)
        return bytes
    }
}

/// The management commands swift-att sends (doc/mgmt-api.txt, "Commands").
public struct ManagementOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Read Controller Index List (0x0003).
    public static let readControllerIndexList = ManagementOpcode(rawValue: 0x0003)
    /// Read Controller Information (0x0004).
    public static let readControllerInformation = ManagementOpcode(rawValue: 0x0004)

    public var description: String {
        switch self {
        case .readControllerIndexList: return "Read Controller Index List"
        case .readControllerInformation: return "Read Controller Information"
        default: return "management command 0x\(String(rawValue, radix: 16))"
        }
    }
}
