import SwiftATTHost
import SwiftATTTransport

/// Why a bond file could not be opened, read or written, with the file named.
///
/// A file that is not a valid bond file is never rewritten: the error says where it is
/// wrong and the bytes stay as they were, for the user to mend or move away — a store
/// that started afresh over them would lose every bond without a word.
public enum BondFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file is not a bond file this code reads (`BondDocumentError` says where).
    case invalid(file: String, BondDocumentError)
    /// Another process holds the file's lock: it is using the file, and would overwrite
    /// whatever this one wrote.
    case inUse(file: String, lockFile: String)
    /// A system call failed: `action` is what was being done to `file`
    /// ("reading", "writing", "locking", "creating the directory of").
    case system(action: String, file: String, call: String, Errno)
    /// `close()` released the file; nothing more is written.
    case closed(file: String)

    public var description: String {
        switch self {
        case let .invalid(file, error):
            return "\(file): \(error) (the file is left as it is: mend it, or move it away to start afresh)"
        case let .inUse(file, lockFile):
            return "\(file) is in use: another swift-att process holds its lock (\(lockFile))"
        case let .system(action, file, call, errno):
            return "\(action) \(file) failed: \(call): \(errno)"
        case let .closed(file):
            return "\(file) was closed: the change was not kept"
        }
    }

    /// The file this error is about.
    public var file: String {
        switch self {
        case let .invalid(file, _), let .inUse(file, _), let .system(_, file, _, _), let .closed(file): return file
        }
    }

    /// As the host's storage protocol reports it.
    var storageError: SecurityStorageError { SecurityStorageError(description) }
}
