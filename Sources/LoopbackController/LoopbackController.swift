import BluetoothCore
import Transport

/// One emulated controller on a `LoopbackLink`: what a host opens as its transport.
public struct LoopbackController: Sendable {
    public let link: LoopbackLink
    let index: Int
    /// The controller's public address (Read BD_ADDR); hosts advertise and connect
    /// with the static random address they set.
    public let publicAddress: BluetoothAddress

    /// The transport to give `Central.start` or `Peripheral.start`. One host at a time:
    /// opening it while another transport to this controller is open fails.
    public var specification: TransportSpecification {
        let link = self.link
        let index = self.index
        return .inProcess(InProcessTransportFactory(name: "loopback:\(index)") { () throws(TransportError) -> any HCITransport in
            try LoopbackTransport(link: link, index: index)
        })
    }

    /// Opens the transport directly, for tests that speak HCI themselves.
    public func open() throws(TransportError) -> any HCITransport {
        try LoopbackTransport(link: link, index: index)
    }
}
