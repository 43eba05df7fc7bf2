/// `0x0f`: how SMP's messages print an octet (lower case, two digits, as btmon does).
enum SMPHex {
    static func octet(_ value: UInt8) -> String {
        "0x" + (value < 0x10 ? "0" : "") + String(value, radix: 16)
    }
}
