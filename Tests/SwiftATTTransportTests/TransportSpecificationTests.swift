import Testing
import SwiftATTTransport

@Suite struct TransportSpecificationTests {
    @Test(arguments: [
        ("hci0", TransportSpecification.hciSocket(name: "hci0")),
        ("hci12", .hciSocket(name: "hci12")),
        ("tcp:127.0.0.1:9000", .tcpClient(host: "127.0.0.1", port: 9000)),
        ("tcp:[::1]:9001", .tcpClient(host: "::1", port: 9001)),
        ("tcp:localhost:1", .tcpClient(host: "localhost", port: 1)),
        ("tcp-server:127.0.0.1:9100", .tcpServer(host: "127.0.0.1", port: 9100)),
        ("serial:/dev/ttyUSB0", .serial(path: "/dev/ttyUSB0", baudRate: 115_200, hardwareFlowControl: false)),
        ("serial:/dev/ttyACM0@1000000", .serial(path: "/dev/ttyACM0", baudRate: 1_000_000, hardwareFlowControl: false)),
        ("serial:/dev/ttyUSB1@3000000,rtscts", .serial(path: "/dev/ttyUSB1", baudRate: 3_000_000, hardwareFlowControl: true)),
        ("vhci", .vhci(path: "/dev/vhci")),
        ("vhci:/dev/vhci-test", .vhci(path: "/dev/vhci-test")),
        ("h4:/dev/vport0p1", .characterDevice(path: "/dev/vport0p1")),
    ])
    func parses(_ text: String, _ expected: TransportSpecification) throws {
        #expect(try TransportSpecification(parsing: text) == expected)
    }

    @Test func descriptionRoundTrips() throws {
        for text in ["hci0", "tcp:127.0.0.1:9000", "tcp:[::1]:9001", "tcp-server:127.0.0.1:9100", "serial:/dev/ttyUSB1@3000000,rtscts",
                     "vhci", "vhci:/dev/vhci-test", "h4:/dev/vport0p1"] {
            #expect(try TransportSpecification(parsing: text).description == text)
        }
    }

    @Test(arguments: ["", "hci", "hciX", "hci-1", "hci01", "hci99999", "usb:0", "tcp:", "tcp:127.0.0.1", "tcp:127.0.0.1:0",
                      "tcp:127.0.0.1:65536", "tcp::9000", "serial:", "serial:ttyUSB0", "serial:/dev/ttyUSB0@fast", "serial:/dev/ttyUSB0@0",
                      "vhci:", "vhci:dev/vhci", "vhcix", "h4:", "h4:vport0p1"])
    func rejects(_ text: String) {
        #expect(throws: TransportError.self) { try TransportSpecification(parsing: text) }
        do {
            _ = try TransportSpecification(parsing: text)
        } catch {
            #expect(error.description.contains("invalid transport"), "\(error)")
        }
    }
}
