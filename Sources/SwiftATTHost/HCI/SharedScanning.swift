import SwiftATTHCI

/// The scans running on one controller, sharing its one scan: the first to begin starts
/// the controller scanning, the last to end stops it (`Central.scan`). Loop-confined.
final class SharedScanning {
    private let hci: HCIConversation
    /// How many scans are running; the controller scans while this is above zero.
    private var users = 0
    /// The commands that started the running scans, to start them again after a
    /// controller reset.
    private var start: [HCICommandPacket] = []

    init(hci: HCIConversation) {
        self.hci = hci
    }

    /// A scan begins: the first one starts the controller scanning. Jobs reach the loop
    /// in order, so a stop for an ended scan can never overtake the start of the next.
    func begin(_ start: [HCICommandPacket], completion: @escaping @Sendable (ControllerError?) -> Void) {
        users += 1
        guard users == 1 else { return completion(nil) }
        self.start = start
        sendInOrder(start[...], completion: completion)
    }

    /// The controller was reset under running scans: they scan again.
    func resume() {
        if users > 0 { sendInOrder(start[...]) { _ in } }
    }

    /// A scan ends: the last one stops the controller scanning.
    func end(_ stop: [HCICommandPacket]) {
        guard users > 0 else { return }
        users -= 1
        if users == 0 { sendInOrder(stop[...]) { _ in } }
    }

    /// Sends commands in order (the command flow keeps FIFO order) and reports the first
    /// failure, or nil, once all are answered.
    private func sendInOrder(_ packets: ArraySlice<HCICommandPacket>, completion: @escaping @Sendable (ControllerError?) -> Void) {
        guard !packets.isEmpty else { return completion(nil) }
        let tally = CommandTally(count: packets.count, completion: completion)
        for packet in packets {
            hci.send(packet, timeout: Controller.defaultCommandTimeout) { result in
                tally.answered(Self.failure(of: packet, result))
            }
        }
    }

    /// Why a command of unknown type failed, if it did: a non-success status in either
    /// kind of answer.
    private static func failure(of packet: HCICommandPacket, _ result: Result<HCICommandAnswer, ControllerError>) -> ControllerError? {
        switch result {
        case let .failure(error):
            return error
        case let .success(.status(status)):
            return status.status.isSuccess ? nil : .hci(.commandFailed(packet.opcode, status.status))
        case let .success(.complete(complete)):
            guard let status = complete.status, !status.isSuccess else { return nil }
            return .hci(.commandFailed(packet.opcode, status))
        }
    }
}
