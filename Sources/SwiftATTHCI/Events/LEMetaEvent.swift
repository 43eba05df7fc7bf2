import SwiftATTCore

/// One LE Meta subevent's type: its code and the codec for its parameters (the octets
/// after the subevent code).
public protocol LEMetaSubevent: Sendable {
    /// The subevent code: the LE Meta event's first parameter (§7.7.65).
    static var subeventCode: UInt8 { get }
    /// Octets of parameters after the subevent code.
    var parametersLength: Int { get }
    /// Writes exactly `parametersLength` octets.
    func encodeParameters(into writer: inout ByteWriter)
    /// Parses the parameters (everything after the subevent code).
    init(parameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError)
}

extension LEMetaSubevent {
    /// The subevent as an LE Meta event packet.
    public var packet: HCIEventPacket {
        HCIEventPacket(code: LEMetaEvent.code, parameters: encodedParameters(1 + parametersLength) { writer in
            writer.write(Self.subeventCode)
            encodeParameters(into: &writer)
        }[...])
    }
}

/// HCI_LE_Meta (event 0x3E): every LE controller event, told apart by its first octet,
/// the subevent code. Core 5.4 Vol 4 Part E §7.7.65. Unknown subevents stay raw.
public enum LEMetaEvent: HCIEventParameters, Hashable {
    public static let code: UInt8 = 0x3E

    /// LE Connection Complete (0x01).
    case connectionComplete(LEConnectionComplete)
    /// LE Advertising Report (0x02).
    case advertisingReport(LEAdvertisingReport)
    /// LE Connection Update Complete (0x03).
    case connectionUpdateComplete(LEConnectionUpdateComplete)
    /// LE Read Remote Features Complete (0x04).
    case readRemoteFeaturesComplete(LEReadRemoteFeaturesComplete)
    /// LE Long Term Key Request (0x05).
    case longTermKeyRequest(LELongTermKeyRequest)
    /// LE Data Length Change (0x07).
    case dataLengthChange(LEDataLengthChange)
    /// LE Enhanced Connection Complete (0x0A).
    case enhancedConnectionComplete(LEEnhancedConnectionComplete)
    /// LE PHY Update Complete (0x0C).
    case phyUpdateComplete(LEPHYUpdateComplete)
    /// LE Extended Advertising Report (0x0D).
    case extendedAdvertisingReport(LEExtendedAdvertisingReport)
    /// LE Scan Timeout (0x11).
    case scanTimeout(LEScanTimeout)
    /// LE Advertising Set Terminated (0x12).
    case advertisingSetTerminated(LEAdvertisingSetTerminated)
    /// LE Channel Selection Algorithm (0x14).
    case channelSelectionAlgorithm(LEChannelSelectionAlgorithm)
    /// LE Enhanced Connection Complete [v2] (0x29).
    case enhancedConnectionCompleteV2(LEEnhancedConnectionCompleteV2)
    /// A subevent swift-att does not decode: its code and the octets after it.
    case unknown(subeventCode: UInt8, parameters: ArraySlice<UInt8>)

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        guard let subeventCode = p.first else { throw .truncated("LE Meta event subevent code", need: 1, have: 0) }
        let rest = p.bytes(from: 1)
        switch subeventCode {
        case LEConnectionComplete.subeventCode: self = .connectionComplete(try .init(parameters: rest))
        case LEAdvertisingReport.subeventCode: self = .advertisingReport(try .init(parameters: rest))
        case LEConnectionUpdateComplete.subeventCode: self = .connectionUpdateComplete(try .init(parameters: rest))
        case LEReadRemoteFeaturesComplete.subeventCode: self = .readRemoteFeaturesComplete(try .init(parameters: rest))
        case LELongTermKeyRequest.subeventCode: self = .longTermKeyRequest(try .init(parameters: rest))
        case LEDataLengthChange.subeventCode: self = .dataLengthChange(try .init(parameters: rest))
        case LEEnhancedConnectionComplete.subeventCode: self = .enhancedConnectionComplete(try .init(parameters: rest))
        case LEPHYUpdateComplete.subeventCode: self = .phyUpdateComplete(try .init(parameters: rest))
        case LEExtendedAdvertisingReport.subeventCode: self = .extendedAdvertisingReport(try .init(parameters: rest))
        case LEScanTimeout.subeventCode: self = .scanTimeout(try .init(parameters: rest))
        case LEAdvertisingSetTerminated.subeventCode: self = .advertisingSetTerminated(try .init(parameters: rest))
        case LEChannelSelectionAlgorithm.subeventCode: self = .channelSelectionAlgorithm(try .init(parameters: rest))
        case LEEnhancedConnectionCompleteV2.subeventCode: self = .enhancedConnectionCompleteV2(try .init(parameters: rest))
        default: self = .unknown(subeventCode: subeventCode, parameters: rest)
        }
    }

    /// The decoded subevent, `nil` for an unknown one.
    public var subevent: (any LEMetaSubevent)? {
        switch self {
        case let .connectionComplete(e): return e
        case let .advertisingReport(e): return e
        case let .connectionUpdateComplete(e): return e
        case let .readRemoteFeaturesComplete(e): return e
        case let .longTermKeyRequest(e): return e
        case let .dataLengthChange(e): return e
        case let .enhancedConnectionComplete(e): return e
        case let .phyUpdateComplete(e): return e
        case let .extendedAdvertisingReport(e): return e
        case let .scanTimeout(e): return e
        case let .advertisingSetTerminated(e): return e
        case let .channelSelectionAlgorithm(e): return e
        case let .enhancedConnectionCompleteV2(e): return e
        case .unknown: return nil
        }
    }

    /// The subevent code of the case.
    public var subeventCode: UInt8 {
        if case let .unknown(code, _) = self { return code }
        return subevent.map { type(of: $0).subeventCode } ?? 0
    }

    public var parametersLength: Int {
        if case let .unknown(_, parameters) = self { return 1 + parameters.count }
        return 1 + (subevent?.parametersLength ?? 0)
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(subeventCode)
        if case let .unknown(_, parameters) = self {
            writer.write(parameters)
        } else {
            subevent?.encodeParameters(into: &writer)
        }
    }
}
