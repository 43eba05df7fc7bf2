#if canImport(Glibc)
import Glibc
#endif
import SwiftATTTransport

/// The system calls a bond file needs, each failure an error naming the file and call.
///
/// A file that holds keys is readable by its owner only (0600) in a directory only its
/// owner can list (0700, when this code creates it). It is replaced, never rewritten in
/// place: the new text goes to a temporary file beside it, which is synced and renamed
/// over the old one, and the directory is synced so that the rename itself survives a
/// power cut. A crash at any point leaves the old file or the new one, whole.
enum FileSystem {
    /// `write(2)`'s shape, so that a test can make a write fail part-way.
    typealias WriteCall = @Sendable (Int32, UnsafeRawPointer?, Int) -> Int

    /// The directory part of `path` ("." when it has none).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    /// Creates `directory` and any missing parents, each 0700. Existing ones are left as
    /// they are.
    static func createDirectories(_ directory: String, for file: String) throws(BondFileError) {
        var prefix = directory.hasPrefix("/") ? "/" : ""
        for component in directory.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw .system(action: "creating the directory of", file: file, call: "mkdir \(prefix)", .current)
            }
            prefix += "/"
        }
    }

    /// The whole file, or nil when there is none.
    static func read(_ path: String) throws(BondFileError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw .system(action: "reading", file: path, call: "open", .current)
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .system(action: "reading", file: path, call: "read", .current)
            }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<n])
        }
    }

    /// Replaces `path` with `bytes` as the type's comment says. On failure the old file
    /// is untouched and the temporary file removed.
    static func replace(_ path: String, with bytes: [UInt8],
                        write: WriteCall = { Glibc.write($0, $1, $2) }) throws(BondFileError) {
        let temporary = path + ".tmp"
        // A temporary file left by a process that died mid-write; the lock says no live
        // process is writing it.
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd < 0 { throw .system(action: "writing", file: path, call: "open \(temporary)", .current) }
        do throws(BondFileError) {
            // The umask may have narrowed the mode; it cannot have widened it, but a
            // file of keys says 0600 whatever the umask.
            if fchmod(fd, 0o600) != 0 { throw .system(action: "writing", file: path, call: "fchmod", .current) }
            try writeAll(bytes, to: fd, path: path, write: write)
            if fsync(fd) != 0 { throw .system(action: "writing", file: path, call: "fsync", .current) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        if close(fd) != 0 {
            let failure = Errno.current
            unlink(temporary)
            throw .system(action: "writing", file: path, call: "close", failure)
        }
        if rename(temporary, path) != 0 {
            let failure = Errno.current
            unlink(temporary)
            throw .system(action: "writing", file: path, call: "rename", failure)
        }
        try syncDirectory(of: path)
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String, write: WriteCall) throws(BondFileError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .system(action: "writing", file: path, call: "write", .current)
            }
            if n == 0 { throw .system(action: "writing", file: path, call: "write", Errno(EIO)) }
            offset += n
        }
    }

    /// Makes a rename in `path`'s directory durable.
    private static func syncDirectory(of path: String) throws(BondFileError) {
        let directory = directory(of: path)
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 { throw .system(action: "writing", file: path, call: "open \(directory)", .current) }
        defer { close(fd) }
        if fsync(fd) != 0 { throw .system(action: "writing", file: path, call: "fsync \(directory)", .current) }
    }
}
