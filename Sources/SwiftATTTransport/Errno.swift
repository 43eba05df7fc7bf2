#if canImport(Glibc)
import Glibc
#endif

/// The symbolic name and message of an `errno` value, so no system error reaches a
/// user as a bare number.
public struct Errno: Hashable, Sendable, CustomStringConvertible {
    /// The `errno` value, as the system call set it.
    public let rawValue: Int32

    /// The error a system call reported, for its name and message.
    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's current `errno`.
    public static var current: Errno { Errno(errno) }

    /// `ECONNREFUSED`, or `errno 123` for a value without a known name.
    public var name: String {
        switch rawValue {
        case EPERM: return "EPERM"
        case ENOENT: return "ENOENT"
        case EINTR: return "EINTR"
        case EIO: return "EIO"
        case ENXIO: return "ENXIO"
        case EBADF: return "EBADF"
        case EAGAIN: return "EAGAIN"
        case ENOMEM: return "ENOMEM"
        case EACCES: return "EACCES"
        case EBUSY: return "EBUSY"
        case EEXIST: return "EEXIST"
        case ENODEV: return "ENODEV"
        case ENOTDIR: return "ENOTDIR"
        case EISDIR: return "EISDIR"
        case EINVAL: return "EINVAL"
        case ENFILE: return "ENFILE"
        case EMFILE: return "EMFILE"
        case ENOTTY: return "ENOTTY"
        case EFBIG: return "EFBIG"
        case ENOSPC: return "ENOSPC"
        case EROFS: return "EROFS"
        case EPIPE: return "EPIPE"
        case ENAMETOOLONG: return "ENAMETOOLONG"
        case ELOOP: return "ELOOP"
        case EDQUOT: return "EDQUOT"
        case EPROTONOSUPPORT: return "EPROTONOSUPPORT"
        case EAFNOSUPPORT: return "EAFNOSUPPORT"
        case EADDRINUSE: return "EADDRINUSE"
        case EADDRNOTAVAIL: return "EADDRNOTAVAIL"
        case ENETUNREACH: return "ENETUNREACH"
        case ECONNABORTED: return "ECONNABORTED"
        case ECONNRESET: return "ECONNRESET"
        case ENOTCONN: return "ENOTCONN"
        case ETIMEDOUT: return "ETIMEDOUT"
        case ECONNREFUSED: return "ECONNREFUSED"
        case EHOSTUNREACH: return "EHOSTUNREACH"
        case ERFKILL: return "ERFKILL"
        default: return "errno \(rawValue)"
        }
    }

    /// The C library's message for the value.
    public var message: String { String(cString: strerror(rawValue)) }

    /// `ECONNREFUSED (Connection refused)`.
    public var description: String { "\(name) (\(message))" }
}
