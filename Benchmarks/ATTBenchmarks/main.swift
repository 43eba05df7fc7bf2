#if canImport(Glibc)
import Glibc
#endif
import SwiftATTPDU
import BenchmarkTables
import BenchmarkSupport

// The ATT codec benchmark: decode and encode of a realistic PDU mix, against a baseline
// measured in the same run (copying the PDU's bytes into a fresh array). Run with
// `swift run -c release swift-att-benchmarks` (see Documentation/Benchmarks.md). Pass `--quick` for a
// short smoke run.

if CommandLine.arguments.contains("--help") || CommandLine.arguments.contains("-h") {
    print("""
    usage: swift-att-benchmarks [--quick]
      --quick   a short smoke run (3 batches of 20 000 operations instead of 11 of 400 000;
                the floor and the borrowed decode: 15 rounds of 4 000 instead of 41 of 40 000)
    Prints the codec table (copy baseline, slice decode, encode, the zero-copy floor and the
    borrowed decode, Bumble's codec when the bench venv is there) and the credit-based channel's.
    """)
    exit(0)
}

let quick = CommandLine.arguments.contains("--quick")
let iterations = quick ? 20_000 : 400_000
let batches = quick ? 3 : 11
// The floor and the borrowed decode, timed in turns (`MeasuredPair`): more, shorter rounds.
let pairIterations = quick ? 4_000 : 40_000
let pairRounds = quick ? 15 : 41

var table = Table([
    "PDU", "bytes", "copy ns", "decode ns", "dec/copy", "encode ns", "enc/copy",
    "encode+alloc ns", "decode PDUs/s", "decode MB/s", "allocs/decode", "allocs/encode",
    "floor ns", "borrowed ns", "bor÷floor", "dec÷floor", "allocs/borrowed",
])
// Bumble's codec on the same mix, first, so its column is ready when the table is built.
var bumble: [Int: BumbleCodecFigures.Figure] = [:]
var bumbleNote = BumbleCodecFigures.unavailableReason
if bumbleNote == nil {
    do { bumble = try BumbleCodecFigures.measure(PDUMix.cases.map(\.bytes), quick: quick) } catch {
        bumbleNote = "Bumble's codec could not be timed: \(error)"
    }
}
if bumbleNote == nil {
    table = Table(table.headers + ["Bumble dec ns", "Bumble÷dec", "Bumble enc ns", "Bumble÷enc"])
}
var bumbleDecodeRatios: [Double] = []
var bumbleEncodeRatios: [Double] = []
var decodeRatios: [Double] = []
var borrowedFloorRatios: [Double] = []
var encodeRatios: [Double] = []
var buffer = [UInt8](repeating: 0, count: 1024)

for (index, pduCase) in PDUMix.cases.enumerated() {
    let input = pduCase.bytes[...]
    // Fail loudly if the mix is not valid: the benchmark would measure error paths.
    let decoded: ATTPDU
    do { decoded = try ATTPDU(parsing: input) } catch {
        fatalError("benchmark mix '\(pduCase.name)' does not decode: \(error)")
    }
    precondition(decoded.encoded() == pduCase.bytes, "benchmark mix '\(pduCase.name)' does not round-trip")
    let span = pduCase.bytes.span
    precondition((try? ATTPDU.Borrowed(parsing: span))?.owned(in: input) == decoded,
                  "benchmark mix '\(pduCase.name)': the borrowed decode disagrees with the slice decoder")

    let copy = Measurement.run(iterations: iterations, batches: batches) {
        let fresh = [UInt8](unsafeUninitializedCapacity: input.count) { out, n in
            input.withUnsafeBufferPointer { src in
                out.baseAddress!.update(from: src.baseAddress!, count: src.count)
            }
            n = input.count
        }
        blackhole(fresh)
    }
    let decode = Measurement.run(iterations: iterations, batches: batches) {
        let pdu = try? ATTPDU(parsing: input)
        blackhole(pdu)
    }
    // The borrowed decode and its floor read the same span of the same array, timed in
    // turns from closures of one function (`ZeroCopyFloor.measureWithBorrowed`).
    let pair = ZeroCopyFloor.measureWithBorrowed(pduCase.bytes, iterations: pairIterations, rounds: pairRounds)
    let (floor, borrowed) = (pair.first, pair.second)
    let encode = buffer.withUnsafeMutableBytes { out in
        Measurement.run(iterations: iterations, batches: batches) {
            let n = decoded.encode(into: out)
            blackhole(n)
        }
    }
    let encodeAllocating = Measurement.run(iterations: iterations, batches: batches) {
        blackhole(decoded.encoded())
    }

    let decodeRatio = decode.nanosecondsPerOperation / copy.nanosecondsPerOperation
    let encodeRatio = encode.nanosecondsPerOperation / copy.nanosecondsPerOperation
    decodeRatios.append(decodeRatio)
    let borrowedRatio = pair.ratio
    borrowedFloorRatios.append(borrowedRatio)
    encodeRatios.append(encodeRatio)
    let perSecond = 1e9 / decode.nanosecondsPerOperation
    var bumbleCells: [String] = []
    if bumbleNote == nil, let b = bumble[index] {
        let dec = b.decodeNanoseconds / decode.nanosecondsPerOperation
        let enc = b.encodeNanoseconds / encode.nanosecondsPerOperation
        bumbleDecodeRatios.append(dec)
        bumbleEncodeRatios.append(enc)
        bumbleCells = [format(b.decodeNanoseconds, decimals: 0), format(dec, decimals: 0) + "×",
                       format(b.encodeNanoseconds, decimals: 0), format(enc, decimals: 0) + "×"]
    } else if bumbleNote == nil {
        bumbleCells = ["-", "-", "-", "-"]
    }
    table.add([
        pduCase.name, String(pduCase.bytes.count),
        format(copy.nanosecondsPerOperation), format(decode.nanosecondsPerOperation), format(decodeRatio, decimals: 2),
        format(encode.nanosecondsPerOperation), format(encodeRatio, decimals: 2),
        format(encodeAllocating.nanosecondsPerOperation),
        formatRate(perSecond), format(perSecond * Double(pduCase.bytes.count) / 1e6, decimals: 0),
        format(decode.allocationsPerOperation, decimals: 2), format(encode.allocationsPerOperation, decimals: 2),
        format(floor.nanosecondsPerOperation), format(borrowed.nanosecondsPerOperation), format(borrowedRatio, decimals: 2),
        format(decode.nanosecondsPerOperation / floor.nanosecondsPerOperation, decimals: 2),
        format(borrowed.allocationsPerOperation, decimals: 2),
    ] + bumbleCells)
}

// The whole mix, decoded back to back: one figure for "a PDU of typical traffic".
let mix = PDUMix.cases.map { $0.bytes }
let mixDecode = Measurement.run(iterations: iterations / 8, batches: batches) {
    for bytes in mix { blackhole(try? ATTPDU(parsing: bytes[...])) }
}
let mixBytes = mix.reduce(0) { $0 + $1.count }
let mixBorrowed = Measurement.run(iterations: iterations / 8, batches: batches) {
    for bytes in mix { blackhole(try? ATTPDU.Borrowed(parsing: bytes.span)) }
}

print("ATT codec benchmark — release build, median of \(batches) batches × \(iterations) operations")
print("copy = the same bytes copied into a fresh [UInt8] (the baseline); encode = into a caller's buffer;")
print("encode+alloc = into a fresh array of the computed length; borrowed = ATTPDU.Borrowed(parsing:) from a Span;")
print("floor = the same checks and fields for the one known PDU, by hand from raw bytes (ZeroCopyFloor.swift);")
print("floor and borrowed are timed in turns, \(pairRounds) rounds of \(pairIterations) each, and bor÷floor is the median of")
print("the rounds' own ratios (MeasuredPair)")
print()
print(table.render())
print()
let mixPerPDU = mixDecode.nanosecondsPerOperation / Double(mix.count)
print("8-PDU mix decoded back to back: \(format(mixDecode.nanosecondsPerOperation)) ns per mix, \(format(mixPerPDU)) ns per PDU, \(formatRate(1e9 / mixPerPDU)) PDUs/s, \(format(1e9 / mixDecode.nanosecondsPerOperation * Double(mixBytes) / 1e6, decimals: 0)) MB/s, \(format(mixDecode.allocationsPerOperation, decimals: 2)) allocations per mix")
print("8-PDU mix, borrowed decode: \(format(mixBorrowed.nanosecondsPerOperation / Double(mix.count))) ns per PDU, \(format(mixBorrowed.allocationsPerOperation, decimals: 2)) allocations per mix")
print("worst borrowed÷floor ratio \(format(borrowedFloorRatios.max() ?? 0, decimals: 2)) (target ≤ 3)")
print("worst decode/copy ratio \(format(decodeRatios.max() ?? 0, decimals: 2)), worst encode/copy ratio \(format(encodeRatios.max() ?? 0, decimals: 2)) (target ≤ 1.5)")
if let bumbleNote {
    print("Bumble column skipped: \(bumbleNote)")
} else {
    print("Bumble column: bumble.att.ATT_PDU.from_bytes and bytes(pdu) (cache cleared) on the same PDUs, timed in the same run")
    print("by Benchmarks/bumble_att_benchmark.py; Bumble÷dec = how many times faster swift-att decodes (target ≥ 100×):")
    print("slowest decode ratio \(format(bumbleDecodeRatios.min() ?? 0, decimals: 0))×, slowest encode ratio \(format(bumbleEncodeRatios.min() ?? 0, decimals: 0))×")
}

print()
print("Credit-based channel (CreditBasedChannel), per SDU: segment = send + every K-frame written into one reused")
print("buffer; reassemble = every K-frame's payload received + the SDU consumed + its credits granted; ÷copy = the")
print("SDU copied into a fresh [UInt8] in the same run")
print()
print(KFrameBench.run(iterations: iterations / 8, batches: batches))
