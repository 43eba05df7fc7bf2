// `@preconcurrency`: C's `stdout` is a global `var`, which Swift 6 will not read
// otherwise. libc never changes it, and every write below takes the stream's own lock.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// Standard output's C stream: the buffer `print` writes through, so lines written
/// here and printed there keep their order.
enum StandardOutput {
    /// `line` and a newline, under the stream's lock, buffered until `Output.flush()`.
    static func writeLine(_ line: UnsafeRawBufferPointer) {
        flockfile(stdout)
        _ = fwrite(line.baseAddress, 1, line.count, stdout)
        _ = putc_unlocked(0x0A, stdout)
        funlockfile(stdout)
    }
}
