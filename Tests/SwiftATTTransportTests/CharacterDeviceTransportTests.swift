#if canImport(Glibc)
import Glibc
#endif
import SwiftATTHCI
import PseudoTerminal
import Testing
@testable import SwiftATTTransport

/// `h4:PATH`: H4 over a character device opened as it is. A pseudo-terminal pair stands
/// in for a virtio-serial port: its master hangs up (POLLHUP) once its slave has closed,
/// as a virtio port does while qemu's side is not connected.
@Suite struct CharacterDeviceTransportTests {
    @Test func carriesPacketsWhenTheOtherEndIsThere() throws {
        var name = [CChar](repeating: 0, count: 128)
        let master = pseudo_terminal_open(&name, 128)
        try #require(master >= 0)
        defer { close(master) }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let device = try CharacterDeviceTransport.open(path: path, name: "h4:\(path)", peerTimeout: .seconds(1))
        defer { device.close() }
        var raw = termios()
        tcgetattr(device.fileDescriptor, &raw)
        cfmakeraw(&raw)
        tcsetattr(device.fileDescriptor, TCSANOW, &raw)
        let event: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]
        #expect(write(master, event, event.count) == event.count)
        let packets = try device.receive(timeout: .seconds(2))
        #expect(packets.map(\.type) == [.event])
        #expect(packets.first.map { Array($0.bytes) } == Array(event.dropFirst()))
    }

    /// Nobody at the other end: a bounded wait, then ENOTCONN by name (not a spin).
    @Test func waitsBoundedForAMissingPeer() throws {
        var name = [CChar](repeating: 0, count: 128)
        let master = pseudo_terminal_open(&name, 128)
        try #require(master >= 0)
        defer { close(master) }
        let slave = open(name, O_RDWR | O_NOCTTY)
        try #require(slave >= 0)
        close(slave)
        let started = ContinuousClock.now
        do {
            try CharacterDeviceTransport.waitForPeer(master, timeout: .milliseconds(200), name: "h4:test")
            Issue.record("no hang-up seen")
        } catch {
            #expect(error == .systemCall("waiting for the other end of the device", Errno(ENOTCONN), context: "h4:test"))
        }
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(200) && waited < .seconds(2))
    }
}
