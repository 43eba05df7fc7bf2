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
///
/// Objects made once. Looking an algorithm up by name and building the P-256 group cost
/// more than the block, tag or point they serve, so three libcrypto objects are made the
/// first time they are needed and kept for the life of the process: the P-256 `EC_GROUP`
/// (`P256Curve`), the fetched AES-128-ECB `EVP_CIPHER` (`AES128`) and a CMAC `EVP_MAC_CTX`
/// over AES-128-CBC that every tag copies (`CMAC`). Each is a `nonisolated(unsafe)
/// static let`: Swift runs its initializer once, under a lock, before any thread reads
/// it, and nothing assigns it again. They are shared across threads without a lock of our
/// own because after that initializer they are only ever passed to functions that take
/// them as `const` and do not change them (`EC_POINT_mul`, `EC_POINT_is_on_curve`, ... on
/// the group; `EVP_EncryptInit_ex2` on the cipher; `EVP_MAC_CTX_dup` on the context),
/// which openssl-threads(7) names as the case in which an object may be used by many
/// threads at once; where one of them takes a reference (`EVP_MAC_CTX_dup`, on the MAC and
/// its cipher), the count is changed atomically. crypto(7) recommends exactly this ("Performance": fetch an algorithm once
/// and pass the fetched object to every operation). They are never freed: each is a few
/// hundred bytes made once, and freeing one at exit would race with a thread still using
/// it. Every other libcrypto object a call makes (a cipher or MAC context, a point, a
/// number) is its own and freed before the call returns.
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
    /// An `OSSL_PARAM` keeps the key and value pointers it is built from until it is
    /// used, so Swift's temporary C string for one argument would be gone by then.
    static func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>]) -> R) -> R {
        let copies = strings.map { string -> UnsafeMutablePointer<CChar> in
            guard let copy = strdup(string) else { fatalError("strdup: out of memory") }
            return copy
        }
        defer { for copy in copies { free(copy) } }
        return body(copies.map { UnsafePointer($0) })
    }
}
