/// Data signing (Core 5.4 Vol 3 Part H §2.4.5): the Authentication Signature a Signed
/// Write Command carries, made with the signer's CSRK and its SignCounter.
///
/// The signed data is the PDU up to the signature (opcode, handle, value) followed by the
/// SignCounter, 32 bits little-endian. Like every Part H function it is given to AES-CMAC
/// most significant octet first — the reverse of the wire order — and the MAC is the 64
/// most significant bits of the tag, sent least significant octet first after the counter:
/// 12 octets in all. BlueZ's unit/test-crypto.c holds the vectors the tests check.
public enum DataSigning {
    /// The length of a signature: SignCounter (4) and MAC (8).
    public static let signatureLength = 12

    /// The 12-octet signature of `message` (the bytes before the signature, in wire
    /// order) under `key` with `counter`.
    public static func signature(key: UInt128, message: some Collection<UInt8>, counter: UInt32) -> [UInt8] {
        let mac = self.mac(key: key, message: message, counter: counter)
        var signature: [UInt8] = []
        signature.reserveCapacity(signatureLength)
        for shift in stride(from: 0, to: 32, by: 8) { signature.append(UInt8(truncatingIfNeeded: counter >> UInt32(shift))) }
        for shift in stride(from: 0, to: 64, by: 8) { signature.append(UInt8(truncatingIfNeeded: mac >> UInt64(shift))) }
        return signature
    }

    /// Whether `signature` (12 octets: counter, then MAC) signs `message` under `key`.
    /// The caller checks the counter against the last one it accepted (replay).
    public static func verify(key: UInt128, message: some Collection<UInt8>, signature: some Collection<UInt8>) -> Bool {
        let octets = Array(signature)
        guard octets.count == signatureLength else { return false }
        var counter: UInt32 = 0
        for i in 0..<4 { counter |= UInt32(octets[i]) << UInt32(8 * i) }
        let expected = self.signature(key: key, message: message, counter: counter)
        // Compare every octet: how long the check takes says nothing about where it failed.
        var difference: UInt8 = 0
        for i in 0..<signatureLength { difference |= expected[i] ^ octets[i] }
        return difference == 0
    }

    /// The 64-bit MAC: the most significant half of AES-CMAC_key(reversed(message ‖ counter)).
    static func mac(key: UInt128, message: some Collection<UInt8>, counter: UInt32) -> UInt64 {
        var data = Array(message)
        for shift in stride(from: 0, to: 32, by: 8) { data.append(UInt8(truncatingIfNeeded: counter >> UInt32(shift))) }
        let tag = CMAC.tag(key: key, message: data.reversed())
        return UInt64(truncatingIfNeeded: tag >> 64)
    }
}
