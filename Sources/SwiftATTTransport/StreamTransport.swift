#if canImport(Glibc)
import Glibc
#endif
import SwiftATTHCI

/// H4 over a byte stream (a TCP socket or a serial port): packets are framed by their
/// indicator and header lengths, since the stream delivers bytes in arbitrary chunks.
public final class StreamTransport: HCITransport {
    public let name: String
    @exclusivity(unchecked) public private(set) var fileDescriptor: Int32
    // Loop-confined, like every transport (one thread at a time calls it): the per-packet
    // state is `@exclusivity(unchecked)`, since a class's stored property is otherwise
    // checked at run time on each access, a call into the runtime per packet; no method
    // reaches back into the transport while it mutates one of these.
    @exclusivity(unchecked) private var deframer = H4Deframer()
    @exclusivity(unchecked) private var readBuffer = [UInt8](repeating: 0, count: 16 * 1024)
    @exclusivity(unchecked) private var writeBuffer: [UInt8] = []
    /// A TCP (or any) socket rather than a serial port: writes go with MSG_NOSIGNAL.
    private let isSocket: Bool
    /// How long `send` may wait for the peer to drain before failing.
    /// Read on every write, so without a run-time exclusivity check (one per command
    /// round trip): like the descriptor, it is set by the transport's owner between
    /// uses, never during one.
    @exclusivity(unchecked) public var writeTimeout: Duration = .seconds(5)

    /// Takes ownership of `fileDescriptor`, which is made non-blocking.
    public init(name: String, fileDescriptor: Int32) throws(TransportError) {
        self.name = name
        self.fileDescriptor = fileDescriptor
        isSocket = FileDescriptor.isSocket(fileDescriptor)
        try FileDescriptor.setNonBlocking(fileDescriptor, context: name)
    }

    deinit { close() }

    public func receive(_ handler: (HCIPacket) -> Void) throws(TransportError) {
        guard fileDescriptor >= 0 else { throw .closed(name) }
        let n = try FileDescriptor.readAvailable(fileDescriptor, into: &readBuffer, context: name)
        do throws(HCIDecodingError) {
            try deframer.feed(readBuffer[..<n], handler)
        } catch {
            throw .framing(name, reason: error.description)
        }
    }

    public func send(_ packet: HCIPacket) throws(TransportError) {
        guard fileDescriptor >= 0 else { throw .closed(name) }
        writeBuffer.removeAll(keepingCapacity: true)
        writeBuffer.append(packet.type.rawValue)
        writeBuffer.append(contentsOf: packet.bytes)
        try FileDescriptor.writeAll(fileDescriptor, writeBuffer, isSocket: isSocket, timeout: writeTimeout, context: name)
    }

    /// Framed on the stack and written from there.
    public func send(command: HCICommandPacket) throws(TransportError) {
        guard fileDescriptor >= 0 else { throw .closed(name) }
        try command.withH4Bytes { bytes throws(TransportError) in
            try FileDescriptor.writeAll(fileDescriptor, bytes, isSocket: isSocket, timeout: writeTimeout, context: name)
        }
    }

    /// The packets framed back to back in one buffer, written at once.
    public func send(contentsOf packets: [HCIPacket]) throws(TransportError) {
        guard fileDescriptor >= 0 else { throw .closed(name) }
        writeBuffer.removeAll(keepingCapacity: true)
        for packet in packets {
            writeBuffer.append(packet.type.rawValue)
            writeBuffer.append(contentsOf: packet.bytes)
        }
        try FileDescriptor.writeAll(fileDescriptor, writeBuffer, isSocket: isSocket, timeout: writeTimeout, context: name)
    }

    public func close() {
        if fileDescriptor >= 0 {
            _ = Glibc.close(fileDescriptor)
            fileDescriptor = -1
        }
    }
}
