/// AES-128 block encryption (FIPS-197), the cipher under AES-CMAC.
///
/// GATT needs it for the Database Hash (Core 5.4 Vol 3 Part G §7.3.1) and the Security
/// Manager will need it for its e, c1 and s1 functions (Vol 3 Part H §2.2). Only the
/// forward cipher exists: neither use ever decrypts. Blocks and keys are `UInt128` read
/// big-endian (the first octet of the FIPS-197 byte string is the most significant), so
/// no call can pass a block of the wrong size. A table-free byte implementation: the
/// S-box is derived once from its definition instead of being typed in; the hash is
/// computed once per database, so clarity wins over speed here.
public struct AES128: Sendable {
    /// The 44 expanded key words, FIPS-197 §5.2.
    private let roundKeys: [UInt32]

    /// A cipher for `key`, the FIPS-197 key bytes as a big-endian number.
    public init(key: UInt128) {
        var w = [UInt32](repeating: 0, count: 44)
        for i in 0..<4 {
            w[i] = UInt32(truncatingIfNeeded: key >> (96 - 32 * i))
        }
        var rcon: UInt8 = 0x01
        for i in 4..<44 {
            var t = w[i - 1]
            if i % 4 == 0 {
                t = Self.subWord(t << 8 | t >> 24) ^ UInt32(rcon) << 24
                rcon = Self.xtime(rcon)
            }
            w[i] = w[i - 4] ^ t
        }
        roundKeys = w
    }

    /// A cipher for a 16-byte key; `nil` for any other length.
    public init?(key bytes: some Collection<UInt8>) {
        guard let key = UInt128(bigEndianBytes: bytes) else { return nil }
        self.init(key: key)
    }

    /// Encrypts one block (FIPS-197 §5.1: ten rounds for a 128-bit key).
    public func encrypt(_ block: UInt128) -> UInt128 {
        // The state in input order: column c is bytes 4c..<4c+4, row r is byte 4c+r.
        var s = [UInt8](repeating: 0, count: 16)
        for i in 0..<16 { s[i] = UInt8(truncatingIfNeeded: block >> (120 - 8 * i)) }
        addRoundKey(&s, round: 0)
        for round in 1..<10 {
            Self.subBytesAndShiftRows(&s)
            Self.mixColumns(&s)
            addRoundKey(&s, round: round)
        }
        Self.subBytesAndShiftRows(&s)
        addRoundKey(&s, round: 10)
        var out: UInt128 = 0
        for b in s { out = out << 8 | UInt128(b) }
        return out
    }

    /// Encrypts a 16-byte block given as bytes; `nil` for any other length.
    public func encrypt(block bytes: some Collection<UInt8>) -> [UInt8]? {
        guard let block = UInt128(bigEndianBytes: bytes) else { return nil }
        return encrypt(block).bigEndianBytes
    }

    private func addRoundKey(_ s: inout [UInt8], round: Int) {
        for c in 0..<4 {
            let k = roundKeys[4 * round + c]
            s[4 * c] ^= UInt8(truncatingIfNeeded: k >> 24)
            s[4 * c + 1] ^= UInt8(truncatingIfNeeded: k >> 16)
            s[4 * c + 2] ^= UInt8(truncatingIfNeeded: k >> 8)
            s[4 * c + 3] ^= UInt8(truncatingIfNeeded: k)
        }
    }

    /// SubBytes then ShiftRows (§5.1.1, §5.1.2): row r moves left by r columns.
    private static func subBytesAndShiftRows(_ s: inout [UInt8]) {
        let old = s
        for c in 0..<4 {
            for r in 0..<4 {
                s[4 * c + r] = sBox[Int(old[4 * ((c + r) % 4) + r])]
            }
        }
    }

    /// MixColumns (§5.1.3): each column times {03}x³ + {01}x² + {01}x + {02}.
    private static func mixColumns(_ s: inout [UInt8]) {
        for c in 0..<4 {
            let a0 = s[4 * c], a1 = s[4 * c + 1], a2 = s[4 * c + 2], a3 = s[4 * c + 3]
            let all = a0 ^ a1 ^ a2 ^ a3
            s[4 * c] = a0 ^ all ^ xtime(a0 ^ a1)
            s[4 * c + 1] = a1 ^ all ^ xtime(a1 ^ a2)
            s[4 * c + 2] = a2 ^ all ^ xtime(a2 ^ a3)
            s[4 * c + 3] = a3 ^ all ^ xtime(a3 ^ a0)
        }
    }

    /// Multiplication by {02} in GF(2⁸) modulo x⁸ + x⁴ + x³ + x + 1 (§4.2.1).
    private static func xtime(_ x: UInt8) -> UInt8 {
        (x &<< 1) ^ (x & 0x80 != 0 ? 0x1B : 0)
    }

    private static func subWord(_ w: UInt32) -> UInt32 {
        var out: UInt32 = 0
        for shift in stride(from: 24, through: 0, by: -8) {
            out |= UInt32(sBox[Int(UInt8(truncatingIfNeeded: w >> UInt32(shift)))]) << UInt32(shift)
        }
        return out
    }

    /// The S-box of §5.1.1: the multiplicative inverse in GF(2⁸) followed by the affine
    /// transformation. Walks the field with the generator {03}: p runs over every non-zero
    /// element while q runs over the inverses.
    private static let sBox: [UInt8] = {
        func rotl(_ x: UInt8, _ n: UInt8) -> UInt8 { x &<< n | x &>> (8 - n) }
        var box = [UInt8](repeating: 0, count: 256)
        var p: UInt8 = 1
        var q: UInt8 = 1
        repeat {
            p = p ^ (p &<< 1) ^ (p & 0x80 != 0 ? 0x1B : 0)
            q ^= q &<< 1
            q ^= q &<< 2
            q ^= q &<< 4
            if q & 0x80 != 0 { q ^= 0x09 }
            box[Int(p)] = q ^ rotl(q, 1) ^ rotl(q, 2) ^ rotl(q, 3) ^ rotl(q, 4) ^ 0x63
        } while p != 1
        box[0] = 0x63
        return box
    }()
}
