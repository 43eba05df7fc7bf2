import CSwiftATTCrypto

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How SwiftATTCrypto treats a libcrypto call that fails.
///
/// Every call this module makes is given inputs it has already checked: 16-octet keys
/// and blocks, a P-256 scalar in range, a peer point validated on the curve
/// (`P256PublicKey.validate()`). What remains that can make libcrypto fail is the
/// machine, not the input: an allocation that fails, a random generator that cannot be
/// seeded, an OpenSSL configuration that has unloaded the default provider (so there is
/// no AES at all). None of these can be caused by a peer, none is recoverable by the
/// caller, and a Security Manager that went on without its cipher or its randomness
/// would be worse than one that stops. So these paths stop the process with OpenSSL's
/// own reason (the STYLE's "programmer or system error", never an input), and the
/// public functions stay non-throwing where only such a failure is possible: the
/// pairing machine is not made to carry an error path no test could reach. Where an
/// input *can* be refused (a peer's public key, a private key out of range) the
/// function throws `P256Error` instead.
enum LibCrypto {
    /// Stops with `function`'s name and the reason on OpenSSL's error queue.
    static func fail(_ function: StaticString) -> Never {
        fatalError("libcrypto: \(function) failed: \(queuedReason())")
    }

    /// Stops unless a libcrypto call returned 1 (OpenSSL's success).
    static func check(_ result: Int32, _ function: StaticString) {
        if result != 1 { fail(function) }
    }

    /// Forgets the errors a call that was allowed to fail left on this thread's queue,
    /// so a later failure reports its own reason.
    static func clearErrors() {
        ERR_clear_error()
    }

    /// The oldest error on this thread's queue as OpenSSL words it, and clears it.
    private static func queuedReason() -> String {
        let code = ERR_get_error()
        guard code != 0 else { return "no reason on the error queue" }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        ERR_clear_error()
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Runs `body` with NUL-terminated copies of `strings` that live for the whole call.
    ///
    /// `OSSL_PARAM_BLD_push_*` keep the key and value pointers they are given until
    /// `OSSL_PARAM_BLD_to_param` copies them, so Swift's temporary C string for one
    /// argument would be gone by then.
    static func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>]) -> R) -> R {
        let copies = strings.map { string -> UnsafeMutablePointer<CChar> in
            guard let copy = strdup(string) else { fatalError("strdup: out of memory") }
            return copy
        }
        defer { for copy in copies { free(copy) } }
        return body(copies.map { UnsafePointer($0) })
    }
}
