import SwiftATTHCI

extension HCIEvent {
    /// The spec's name: `Command Complete`, `LE Meta: LE Connection Complete`.
    var name: String {
        switch self {
        case .disconnectionComplete: return "Disconnection Complete"
        case .encryptionChange: return "Encryption Change"
        case .readRemoteVersionInformationComplete: return "Read Remote Version Information Complete"
        case .commandComplete: return "Command Complete"
        case .commandStatus: return "Command Status"
        case .hardwareError: return "Hardware Error"
        case .numberOfCompletedPackets: return "Number Of Completed Packets"
        case .encryptionKeyRefreshComplete: return "Encryption Key Refresh Complete"
        case let .leMeta(meta): return "LE Meta: " + meta.name
        case let .unknown(packet): return "Unknown (0x\(String(packet.code, radix: 16)))"
        }
    }
}

extension LEMetaEvent {
    var name: String {
        switch self {
        case .connectionComplete: return "LE Connection Complete"
        case .advertisingReport: return "LE Advertising Report"
        case .connectionUpdateComplete: return "LE Connection Update Complete"
        case .readRemoteFeaturesComplete: return "LE Read Remote Features Complete"
        case .longTermKeyRequest: return "LE Long Term Key Request"
        case .dataLengthChange: return "LE Data Length Change"
        case .enhancedConnectionComplete: return "LE Enhanced Connection Complete"
        case .phyUpdateComplete: return "LE PHY Update Complete"
        case .extendedAdvertisingReport: return "LE Extended Advertising Report"
        case .scanTimeout: return "LE Scan Timeout"
        case .advertisingSetTerminated: return "LE Advertising Set Terminated"
        case .channelSelectionAlgorithm: return "LE Channel Selection Algorithm"
        case .enhancedConnectionCompleteV2: return "LE Enhanced Connection Complete [v2]"
        case let .unknown(code, _): return "Unknown LE subevent (0x\(String(code, radix: 16)))"
        }
    }
}
