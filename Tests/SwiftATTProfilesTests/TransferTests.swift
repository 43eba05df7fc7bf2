import SwiftATTCore
import SwiftATTGATT
import SwiftATTProfiles
import Testing

/// Seed 000's transfer: chunks, back-pressure and "EOM".
struct TransferTests {
    @Test func uuidsAreTheSample() {
        #expect(TransferProfile.service.description == "E20A39F4-73F5-4BC4-A12F-17D1AD07A961")
        #expect(TransferProfile.characteristic.description == "08590F7E-DB05-467E-8757-72F6FAEB13D4")
        #expect(TransferProfile.endOfMessage == [0x45, 0x4F, 0x4D])
    }

    @Test func chunksThenEndOfMessage() {
        let text = String(repeating: "0123456789", count: 4) + "abcde"   // 45 octets
        var sender = TransferSender(text: text)
        #expect(sender.chunkCount == 3)
        var sent: [[UInt8]] = []
        while let chunk = sender.pending {
            sent.append(chunk)
            sender.accepted()
        }
        #expect(sent.map(\.count) == [20, 20, 5, 3])
        #expect(sent.last == Array("EOM".utf8))
        #expect(sent.dropLast().flatMap { $0 } == Array(text.utf8))
        #expect(sender.isFinished)
        #expect(sender.chunksSent == 3)
        #expect(sender.bytesSent == 45)
        sender.accepted()   // nothing left: stays finished
        #expect(sender.isFinished)
    }

    /// `updateValue` returning false: the same chunk is offered again at
    /// `.readyToUpdate`, nothing is skipped or repeated after it is accepted.
    @Test func aRefusedChunkIsResent() {
        var sender = TransferSender(text: "abcdefghij", chunkSize: 4)
        var delivered: [[UInt8]] = []
        var refusals = 0
        var attempt = 0
        // Refuse every second offer, "EOM" included, like a transmit queue that fills up.
        while let chunk = sender.pending {
            attempt += 1
            if attempt % 2 == 0 {
                refusals += 1
                #expect(sender.pending == chunk)   // still the same chunk
                continue
            }
            delivered.append(chunk)
            sender.accepted()
        }
        #expect(refusals == 3)
        #expect(delivered == [Array("abcd".utf8), Array("efgh".utf8), Array("ij".utf8), Array("EOM".utf8)])
    }

    @Test func theEndOfMessageCanBeRefusedToo() {
        var sender = TransferSender(text: "hi")
        sender.accepted()
        #expect(sender.state == .sendingEndOfMessage)
        #expect(sender.isSendingEndOfMessage)
        #expect(sender.pending == Array("EOM".utf8))   // refused: offered again
        #expect(sender.pending == Array("EOM".utf8))
        sender.accepted()
        #expect(sender.pending == nil)
    }

    @Test func exactMultipleAndEmptyAndTinyChunks() {
        var exact = TransferSender(data: Array(repeating: 0x41, count: 40))
        var sizes: [Int] = []
        while let c = exact.pending { sizes.append(c.count); exact.accepted() }
        #expect(sizes == [20, 20, 3])

        var empty = TransferSender(data: [])
        #expect(empty.chunkCount == 0)
        #expect(empty.pending == Array("EOM".utf8))
        empty.accepted()
        #expect(empty.isFinished)

        #expect(TransferSender(text: "abc", chunkSize: 0).chunkSize == 1)
    }

    @Test func receiverReassemblesUntilEndOfMessage() {
        let text = "Grüße, ünïcödé across chunk boundaries — 20 octets each."
        var sender = TransferSender(text: text)
        var receiver = TransferReceiver()
        var result: String?
        while let chunk = sender.pending {
            #expect(result == nil)
            result = receiver.receiveText(chunk)
            sender.accepted()
        }
        #expect(result == text)
        #expect(receiver.received.isEmpty)   // ready for the next message
        #expect(receiver.receive(Array("x".utf8)) == nil)
        #expect(receiver.chunks == 1)
        #expect(receiver.receive(Array("EOM".utf8)) == Array("x".utf8))
    }

    @Test func databaseLayoutAndAdvertisement() throws {
        let server = try TransferProfile.Server()
        let db = server.database
        let range = try #require(db.handles(of: server.service))
        #expect(range == 14...17)
        #expect(HeartRateProfileTests.layout(db, range) == [
            "14 2800 " + Hex.encode(TransferProfile.service.encoded()),
            "15 2803 101000" + Hex.encode(TransferProfile.characteristic.encoded()),
            "16 08590F7E-DB05-467E-8757-72F6FAEB13D4",
            "17 2902",
        ])
        let ad = try TransferProfile.advertisement()
        // 3 (flags) + 18 (128-bit list) leave 10 octets: "swift-at" shortened, the whole
        // name in the scan response.
        #expect(ad.data.count == 31)
        #expect(Array(ad.data[3...4]) == [0x11, 0x07])
        #expect(Array(ad.data[21...]) == [0x09, 0x08] + Array("swift-at".utf8))
        #expect(ad.scanResponse == [0x13, 0x09] + Array("swift-att Transfer".utf8))
        #expect(TransferProfile.defaultText.utf8.count > 200)
    }

    /// ATT_MTU−3 per notification, never below the 20 of ATT_MTU 23 nor above a value's 512.
    @Test(arguments: [(23, 20), (0, 20), (24, 21), (185, 182), (247, 244), (515, 512), (517, 512)])
    func chunkSizeIsTheMTUMinusThree(mtu: Int, size: Int) {
        #expect(TransferProfile.chunkSize(mtu: mtu) == size)
    }

    /// An MTU exchange during a transfer: the chunks from then on are longer, nothing is
    /// skipped or sent twice, and the count follows.
    @Test func resizingMidTransferKeepsTheData() {
        let data = (0..<600).map { UInt8(truncatingIfNeeded: $0) }
        var sender = TransferSender(data: data)
        #expect(sender.chunkCount == 30)
        var sent: [[UInt8]] = []
        for _ in 0..<2 {
            sent.append(sender.pending ?? [])
            sender.accepted()
        }
        sender.resize(to: 244)
        #expect(sender.chunkCount == 2 + 3)   // 560 left: 244 + 244 + 72
        while let chunk = sender.pending, !sender.isSendingEndOfMessage {
            sent.append(chunk)
            sender.accepted()
        }
        #expect(sent.map(\.count) == [20, 20, 244, 244, 72])
        #expect(sent.flatMap { $0 } == data)
        #expect(sender.chunksSent == 5)
        sender.resize(to: 0)
        #expect(sender.chunkSize == 1)
    }
}
