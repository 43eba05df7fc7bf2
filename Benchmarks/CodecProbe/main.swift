// One harness, two versions of the ATT codec: Benchmarks/compare.py builds this program
// (with PDUMix.swift beside it) against the base commit's codec and against the working
// tree's, rewriting the import to each one's module name, so that what differs between
// the two binaries is the library's code and not the benchmark's. A benchmark executable
// inlines the codec into its own loops, and how the compiler lays those out moves small
// decodes by a nanosecond between builds of the same source (a rename alone did).
//
//     probe                 decode and encode ns per PDU of the mix, tab-separated
//     probe NAME COUNT      decode the mix's PDU NAME COUNT times (for callgrind)
#if canImport(Glibc)
import Glibc
#endif
import SwiftATTPDU

/// Decodes `input` `count` times; a function of its own, called the same way by both
/// builds.
@inline(never)
func decode(_ input: ArraySlice<UInt8>, count: Int) -> Int {
    var decoded = 0
    for _ in 0..<count {
        if let pdu = try? ATTPDU(parsing: input) { decoded &+= pdu.encodedLength }
    }
    return decoded
}

@inline(never)
func encode(_ pdu: ATTPDU, into buffer: UnsafeMutableRawBufferPointer, count: Int) -> Int {
    var written = 0
    for _ in 0..<count { written &+= pdu.encode(into: buffer) ?? 0 }
    return written
}

/// Median ns per operation of 11 batches of `count`.
func median(count: Int, _ batch: () -> Int) -> Double {
    var samples: [Double] = []
    var sink = 0
    sink &+= batch()  // warm-up
    for _ in 0..<11 {
        let start = ContinuousClock.now
        sink &+= batch()
        let elapsed = ContinuousClock.now - start
        samples.append((Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9) / Double(count))
    }
    if sink == 42 { print("") }  // keeps the work observable
    return samples.sorted()[samples.count / 2]
}

let arguments = CommandLine.arguments
let cases = PDUMix.cases
if arguments.count == 3, let count = Int(arguments[2]) {
    guard let chosen = cases.first(where: { $0.name == arguments[1] }) else {
        print("no PDU named \(arguments[1]) in the mix")
        exit(2)
    }
    print(decode(chosen.bytes[...], count: count))
} else {
    var buffer = [UInt8](repeating: 0, count: 1024)
    for pduCase in cases {
        let input = pduCase.bytes[...]
        guard let pdu = try? ATTPDU(parsing: input) else {
            print("\(pduCase.name) does not decode")
            exit(1)
        }
        let iterations = 200_000
        let decodeNanoseconds = median(count: iterations) { decode(input, count: iterations) }
        let encodeNanoseconds = buffer.withUnsafeMutableBytes { out in
            median(count: iterations) { encode(pdu, into: out, count: iterations) }
        }
        print("\(pduCase.name)\t\(decodeNanoseconds)\t\(encodeNanoseconds)")
    }
}
