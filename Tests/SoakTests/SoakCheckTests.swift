import Testing
@testable import Soak

/// The soak's value format and its receiver check: what decides whether a soak passed.
@Suite struct SoakCheckTests {
    /// The same bytes bumble_soak.py's `value()` packs: the sequence number little-endian,
    /// padded with 0xA5 to 20 octets.
    @Test func valueGoldenVector() {
        let expected: [UInt8] = [0x04, 0x03, 0x02, 0x01] + [UInt8](repeating: 0xA5, count: 16)
        #expect(SoakProfile.value(0x0102_0304) == expected)
        #expect(SoakProfile.sequence(expected) == 0x0102_0304)
        #expect(SoakProfile.sequence(SoakProfile.value(.max)) == .max)
    }

    @Test(arguments: 0...3) func truncatedValueHasNoSequence(length: Int) {
        #expect(SoakProfile.sequence(Array(SoakProfile.value(7).prefix(length))) == nil)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let values: [UInt32]
        let lost, duplicated, reordered: Int
        let clean: Bool
        var testDescription: String { "\(values)" }
    }

    static let cases: [Case] = [
        Case(values: [1, 2, 3, 4], lost: 0, duplicated: 0, reordered: 0, clean: true),
        Case(values: [1, 2, 5, 6], lost: 2, duplicated: 0, reordered: 0, clean: false),
        Case(values: [1, 2, 2, 3], lost: 0, duplicated: 1, reordered: 0, clean: false),
        Case(values: [1, 3, 2, 4], lost: 1, duplicated: 0, reordered: 1, clean: false),
        // The first values never arrived: not clean although nothing is out of order.
        Case(values: [2, 3, 4], lost: 0, duplicated: 0, reordered: 0, clean: false),
        Case(values: [], lost: 0, duplicated: 0, reordered: 0, clean: false),
    ]

    @Test(arguments: cases) func sequenceCheck(_ c: Case) {
        var check = SequenceCheck()
        for value in c.values { check.take(value) }
        #expect(check.received == c.values.count)
        #expect(check.lost == c.lost)
        #expect(check.duplicated == c.duplicated)
        #expect(check.reordered == c.reordered)
        #expect(check.isClean == c.clean)
        #expect(check.last == c.values.max())
    }

    @Test func figuresJudgeGrowthFromWarmUp() {
        typealias Sample = ResourceWatch.Sample
        func failures(warm: Sample, end: Sample) -> [String] {
            ResourceWatch.Figures(start: Sample(rssKiB: 10_000, fds: 11, heapKiB: 300), warm: warm, end: end,
                                  peakKiB: max(warm.rssKiB, end.rssKiB))
                .failures(rssGrowthLimitKiB: 4096, heapGrowthLimitKiB: 1024)
        }
        let warm = Sample(rssKiB: 14_000, fds: 12, heapKiB: 500)
        // Growth before warm-up (and the timerfd Dispatch opens at the first sleep) is not judged.
        #expect(failures(warm: warm, end: Sample(rssKiB: 18_000, fds: 12, heapKiB: 1500)).isEmpty)
        #expect(failures(warm: warm, end: Sample(rssKiB: 18_097, fds: 12, heapKiB: 500)).count == 1)
        #expect(failures(warm: warm, end: Sample(rssKiB: 14_000, fds: 12, heapKiB: 1525)).count == 1)
        #expect(failures(warm: warm, end: Sample(rssKiB: 14_000, fds: 13, heapKiB: 500)).count == 1)
    }
}
