#if canImport(Glibc)
import Glibc
#endif

/// A file a command reads whole: `dump`'s capture, `peripheral`'s `--database` and
/// `--file`. A file that cannot be read is bad input (exit 1), named with its path and
/// the system's reason.
enum FileInput {
    static func bytes(atPath path: String) throws(CommandError) -> [UInt8] {
        guard let file = fopen(path, "rb") else {
            throw .input("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if n > 0 { bytes.append(contentsOf: chunk[..<n]) }
            if n < chunk.count { break }
        }
        if ferror(file) != 0 { throw .input("cannot read \(path): \(String(cString: strerror(errno)))") }
        return bytes
    }

    /// The file as UTF-8 text (ill-formed sequences become U+FFFD).
    static func text(atPath path: String) throws(CommandError) -> String {
        String(decoding: try bytes(atPath: path), as: UTF8.self)
    }
}
