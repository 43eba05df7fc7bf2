import BenchmarkTables
import SwiftATTL2CAP

/// The credit-based channel's data path (`CreditBasedChannel`): an SDU segmented into
/// K-frames written into one reused buffer, and K-frames reassembled into an SDU with
/// its credits returned, per SDU, against copying the SDU's bytes into a fresh array in
/// the same run.
enum KFrameBench {
    static func run(iterations: Int, batches: Int) -> String {
        var table = Table(["path", "SDU bytes", "K-frames", "ns/SDU", "MB/s", "allocs/SDU", "÷copy"])
        for (sduLength, mps) in [(4096, 247), (200, 247)] {
            let sdu = [UInt8](repeating: 0x5A, count: sduLength)
            // A real copy (`[UInt8](sdu)` would share the storage).
            let copy = Measurement.run(iterations: iterations, batches: batches) {
                blackhole([UInt8](unsafeUninitializedCapacity: sdu.count) { out, n in
                    sdu.withUnsafeBufferPointer { out.baseAddress!.update(from: $0.baseAddress!, count: $0.count) }
                    n = sdu.count
                })
            }
            // Sending: the peer's credits come back each round, as its grants would.
            var sender = channel(mps: mps)
            var buffer = [UInt8](repeating: 0, count: 4 + mps)
            var frames = 0
            let segment = buffer.withUnsafeMutableBytes { out in
                Measurement.run(iterations: iterations, batches: batches) {
                    try! sender.send(sdu[...])
                    frames = 0
                    while let frame = sender.nextFrame() {
                        blackhole(frame.encode(into: out))
                        frames += 1
                    }
                    try! sender.peerGaveCredits(UInt16(frames))
                }
            }
            // Receiving: the K-frames' payloads as they arrive, each SDU read and its
            // credits granted back.
            var source = channel(mps: mps)
            try! source.send(sdu[...])
            var payloads: [[UInt8]] = []
            while let frame = source.nextFrame() { payloads.append(frame.encoded()) }
            var receiver = channel(mps: mps)
            let reassemble = Measurement.run(iterations: iterations, batches: batches) {
                for payload in payloads { blackhole(try! receiver.receive(payload[...])) }
                receiver.consumed()
                blackhole(receiver.nextAction())
            }
            for (name, measured) in [("segment", segment), ("reassemble", reassemble)] {
                let ns = measured.nanosecondsPerOperation
                table.add([name, String(sduLength), String(payloads.count), format(ns),
                           format(Double(sduLength) / ns * 1e3, decimals: 0),
                           format(measured.allocationsPerOperation, decimals: 2),
                           format(ns / copy.nanosecondsPerOperation, decimals: 2)])
            }
        }
        return table.render()
    }

    /// A channel with room for the benchmark's SDUs and a window that a round refills.
    static func channel(mps: Int) -> CreditBasedChannel {
        try! CreditBasedChannel(CreditBasedChannelConfiguration(
            localCID: 0x40, peerCID: 0x41, mtu: 4096, mps: UInt16(mps), peerMTU: 4096, peerMPS: UInt16(mps),
            peerInitialCredits: 64, creditPolicy: CreditReturnPolicy(window: 64, batch: 1)))
    }
}
