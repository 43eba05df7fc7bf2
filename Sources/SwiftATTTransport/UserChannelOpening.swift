#if canImport(Glibc)
import Glibc
#endif
import CSwiftATTBluetooth

/// The steps that bind an adapter on `HCI_CHANNEL_USER` without losing a race with the
/// kernel (net/bluetooth/hci_core.c, hci_sock.c).
///
/// A freshly registered adapter (a dongle just plugged in, a `/dev/vhci` just opened) is
/// powered on by the kernel itself for its setup phase. Taking it down during that phase
/// aborts the setup and leaves it in HCI_SETUP, where `bind` fails with EBUSY for good.
/// The management channel lists an adapter only once that phase is over, so:
/// 1. wait until Read Controller Index List names the index (Index Added events wake us);
/// 2. HCIDEVDOWN (EBUSY here means another program holds the user channel);
/// 3. bind; on EBUSY take it down again only while it shows UP and not INIT (the
///    management interface powered it on meanwhile), otherwise wait for it to settle.
/// An adapter that shows UP while unlisted is held on the user channel by someone else:
/// the wait stops at once and step 2 reports it.
struct UserChannelOpening {
    let socket: Int32
    let index: UInt16
    let name: String
    /// How long step 3 keeps retrying a bind that says EBUSY.
    var bindTimeout: Duration = .seconds(3)

    func run(setupTimeout: Duration) throws(TransportError) {
        _ = try KernelAdapter.deviceInfo(index: index)  // ENODEV names the adapters that exist
        let management = try? ManagementSocket()
        if let management { try waitUntilListed(management, timeout: setupTimeout) }
        try bringDown()
        try bind(waitingOn: management)
    }

    /// Step 1. Without a management channel (very old kernels) there is nothing to wait on.
    private func waitUntilListed(_ management: ManagementSocket, timeout: Duration) throws(TransportError) {
        let deadline = ContinuousClock.now + timeout
        var listed = false
        let indexes = try management.request(.readIndexList) { event in
            if case .indexAdded(index) = event { listed = true }
        }
        do throws(ManagementDecodingError) {
            if try ManagementIndexList(returnParameters: indexes).indexes.contains(index) { listed = true }
        } catch {
            throw .framing("management channel", reason: error.description)
        }
        while !listed {
            let flags = try KernelAdapter.deviceInfo(index: index).flags
            if flags.contains(.up) && !flags.contains(.initializing) { return }  // held: step 2 says so
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return }  // not listed in time: let bind say why
            if case .indexAdded(index)? = try management.nextEvent(timeout: min(remaining, .milliseconds(100))) {
                listed = true
            }
        }
    }

    /// Step 2. Already down is fine.
    private func bringDown() throws(TransportError) {
        guard cbluetooth_ioctl_int(socket, CBLUETOOTH_HCIDEVDOWN, Int(index)) != 0 else { return }
        let e = Errno.current
        if e.rawValue == EALREADY { return }
        throw HCISocketTransport.error(for: e, call: "ioctl(HCIDEVDOWN)", adapter: name, available: HCISocketTransport.adapterNames)
    }

    /// Step 3.
    private func bind(waitingOn management: ManagementSocket?) throws(TransportError) {
        var address = HCISocketTransport.socketAddress(index: index, channel: UInt16(HCI_CHANNEL_USER))
        let deadline = ContinuousClock.now + bindTimeout
        while true {
            let rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.bind(socket, $0, socklen_t(MemoryLayout<sockaddr_hci>.size))
                }
            }
            if rc == 0 { return }
            let e = Errno.current
            guard e.rawValue == EBUSY, ContinuousClock.now < deadline else {
                throw HCISocketTransport.error(for: e, call: "bind(HCI_CHANNEL_USER)", adapter: name,
                                               available: HCISocketTransport.adapterNames)
            }
            let flags = try KernelAdapter.deviceInfo(index: index).flags
            if flags.contains(.up) && !flags.contains(.initializing) { try bringDown() }
            // Wait for the adapter's state to move: a management event, or 50 ms.
            if let management {
                _ = try management.nextEvent(timeout: .milliseconds(50))
            } else {
                var none = pollfd(fd: -1, events: 0, revents: 0)
                _ = poll(&none, 1, 50)
            }
        }
    }
}
