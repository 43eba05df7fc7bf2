import SwiftATTCore

/// How a controller acknowledges a command (Core 5.4 Vol 4 Part E §4.4): most commands
/// finish with Command Complete carrying return parameters; some (connection creation,
/// disconnection, encryption, remote reads) get Command Status at once and report their
/// outcome later in an event of their own.
public enum HCICommandCompletion: Sendable, Hashable {
    /// Command Complete (§7.7.14) ends the command and carries its return parameters.
    case commandComplete
    /// Command Status (§7.7.15) acknowledges the command; an event of its own reports the
    /// outcome.
    case commandStatus
}

/// An HCI command: its opcode, its parameters, and what its Command Complete returns.
///
/// Parameters are emitted into a pre-sized buffer (`parametersLength`, then
/// `encodeParameters`) and parsed back (`init(parameters:)`) so captures can be decoded.
public protocol HCICommand: Sendable {
    /// What this command's Command Complete event carries after its status.
    associatedtype ReturnParameters: HCIReturnParameters = HCIStatusReturn

    /// The command's opcode: its OGF and OCF.
    static var opcode: HCIOpcode { get }
    /// Whether Command Complete or Command Status answers the command.
    static var completion: HCICommandCompletion { get }
    /// Octets of parameters.
    var parametersLength: Int { get }
    /// Writes exactly `parametersLength` octets.
    func encodeParameters(into writer: inout ByteWriter)
    /// Parses the parameters (everything after the 3-octet command header).
    init(parameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError)
}

extension HCICommand {
    public static var completion: HCICommandCompletion { .commandComplete }

    /// The command as a packet: header and parameters.
    ///
    /// Inlinable, so that `Controller.send` (inlinable in its caller's module) gets it
    /// specialized for its command: called generic, it asked the command's witness
    /// table for the opcode and the length on every command.
    @inlinable
    public var packet: HCICommandPacket {
        // A command without parameters (a constant length, once specialized) skips the
        // empty buffer's making and writing: some 30 instructions of each Read BD_ADDR.
        if parametersLength == 0 { return HCICommandPacket(opcode: Self.opcode, parameters: []) }
        var bytes = [UInt8](repeating: 0, count: parametersLength)
        bytes.withUnsafeMutableBytes { buffer in
            var writer = ByteWriter(buffer)
            encodeParameters(into: &writer)
        }
        return HCICommandPacket(opcode: Self.opcode, parameters: bytes[...])
    }
}

/// A command without parameters (Reset, Read BD_ADDR, …).
public protocol HCIParameterlessCommand: HCICommand {
    /// The command, which has nothing to set.
    init()
}

extension HCIParameterlessCommand {
    public var parametersLength: Int { 0 }
    public func encodeParameters(into writer: inout ByteWriter) {}
    public init(parameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        guard parameters.isEmpty else {
            throw .lengthMismatch("\(Self.opcode) parameters", declared: 0, have: parameters.count)
        }
        self.init()
    }
}

/// The return parameters of a Command Complete event, after the command opcode.
public protocol HCIReturnParameters: Sendable {
    /// Parses the return parameters (status first, for every command swift-att sends).
    init(returnParameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError)
    /// The command's status, the first return parameter.
    var status: HCIStatus { get }
}

/// Return parameters that are only a status.
public struct HCIStatusReturn: HCIReturnParameters, Hashable {
    /// The command's status.
    public var status: HCIStatus

    /// Return parameters of `status`.
    public init(status: HCIStatus) { self.status = status }

    public init(returnParameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        guard let first = returnParameters.first else {
            throw .truncated("Command Complete return parameters", need: 1, have: 0)
        }
        status = HCIStatus(first)
    }
}

/// Checks a parameter block's length once, before fields are read without checks.
@usableFromInline
enum HCIWire {
    /// Exactly `length` octets.
    @inlinable
    static func check(_ bytes: borrowing ArraySlice<UInt8>, _ what: @autoclosure () -> String, length: Int) throws(HCIDecodingError) {
        if bytes.count < length { throw .truncated(what(), need: length, have: bytes.count) }
        if bytes.count > length { throw .lengthMismatch(what(), declared: length, have: bytes.count) }
    }

    /// At least `minimum` octets.
    @inlinable
    static func check(_ bytes: borrowing ArraySlice<UInt8>, _ what: @autoclosure () -> String, atLeast minimum: Int) throws(HCIDecodingError) {
        if bytes.count < minimum { throw .truncated(what(), need: minimum, have: bytes.count) }
    }

    /// A status-first return block: fails if it is shorter than `length` unless the
    /// status is an error (controllers may send only the status then).
    @inlinable
    static func checkReturn(_ bytes: borrowing ArraySlice<UInt8>, _ what: @autoclosure () -> String, length: Int) throws(HCIDecodingError) {
        guard let status = bytes.first else { throw .truncated(what(), need: length, have: 0) }
        if status == 0, bytes.count < length { throw .truncated(what(), need: length, have: bytes.count) }
    }
}
