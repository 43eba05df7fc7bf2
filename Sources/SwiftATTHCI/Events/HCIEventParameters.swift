import SwiftATTCore

/// An HCI event's type: its code and the codec for its parameters (the octets after the
/// event code and length). Core 5.4 Vol 4 Part E §5.4.4.
///
/// Hosts parse; controllers (real, or an in-memory one in tests) emit through
/// `parametersLength` and `encodeParameters`, mirroring `HCICommand`.
public protocol HCIEventParameters: Sendable {
    /// The event code (§7.7).
    static var code: UInt8 { get }
    /// Octets of parameters; callers keep an event within 255.
    var parametersLength: Int { get }
    /// Writes exactly `parametersLength` octets.
    func encodeParameters(into writer: inout ByteWriter)
    /// Parses the parameters (everything after the event code and length).
    init(parameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError)
}

extension HCIEventParameters {
    /// The event as a packet: code and parameters.
    public var packet: HCIEventPacket {
        HCIEventPacket(code: Self.code, parameters: encodedParameters(parametersLength, encodeParameters)[...])
    }
}

/// `count` octets written by `encode`. Zero octets are `[]`: see `ByteEncodable.encoded()`
/// for why the uninitialized-capacity initializer is not used for them.
func encodedParameters(_ count: Int, _ encode: (inout ByteWriter) -> Void) -> [UInt8] {
    guard count > 0 else { return [] }
    return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
        var writer = ByteWriter(UnsafeMutableRawBufferPointer(buffer))
        encode(&writer)
        initialized = writer.count
    }
}
