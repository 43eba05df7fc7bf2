#if canImport(Glibc)
import Glibc
#endif
import SwiftATTHost
import SwiftATTSecurity
import SwiftATTTransport
import Synchronization

/// A host's identities and bonds in one JSON file (`BondDocument`), so that bonds last
/// from one run to the next:
///
///     let file = try BondFile.open(atPath: path)
///     let central = try await Central.start(transport: spec, storage: file)
///     …
///     await central.close()
///     file.close()
///
/// The file holds an identity per adapter (`AdapterIdentifier`), made the first time the
/// adapter is used; the host advertises and connects under it and distributes it when
/// pairing. A bond made or removed is written before the call that made it returns
/// (`BondStore`'s `persist`); what moves as the host runs — sign counters, what the GATT
/// server keeps for a bonded client — is written on the host's schedule (`BondSync`: at
/// most once a second, and when the host stops). A change that leaves the document as
/// it was writes nothing.
///
/// One process at a time: `open` takes an exclusive `flock` on `<file>.lock`, held until
/// `close()` (or the process ends), so a second swift-att fails at once with `.inUse`
/// instead of overwriting the first one's bonds with its own. The lock is a file of its
/// own because the bond file itself is replaced at every write, and a lock on a replaced
/// file locks nothing. Reading (`read(atPath:)`) needs no lock: every write is a rename,
/// so a reader sees one whole version.
///
/// Edit the bonds of an adapter a host is running on through its `BondStore`
/// (`controller.bonds`): `update` edits the document beneath the store, and the store
/// would write its own list back at its next change.
public final class BondFile: SecurityStorage {
    /// The bond file.
    public let path: String
    /// The file whose lock says this process is using `path`.
    public let lockPath: String
    private let state: Mutex<State>

    private struct State {
        var document: BondDocument
        /// The lock file's descriptor; -1 once closed.
        var lock: Int32
        /// The store handed out per adapter, so that two hosts of this process on one
        /// adapter share one list rather than overwrite each other's.
        var stores: [AdapterIdentifier: BondStore] = [:]
        let write: FileSystem.WriteCall
    }

    private init(path: String, lockPath: String, lock: Int32, document: BondDocument, write: @escaping FileSystem.WriteCall) {
        self.path = path
        self.lockPath = lockPath
        state = Mutex(State(document: document, lock: lock, write: write))
    }

    deinit { close() }

    /// Opens the bond file at `path` for this process: creates its directory (0700)
    /// when missing, locks it, and reads it (an absent file is an empty document, not
    /// written until there is something to keep). Throws `.inUse` when another process
    /// holds it, `.invalid` naming the JSON path of the first bad value when it is not a
    /// bond file (leaving it as it is), `.system` when a system call fails.
    public static func open(atPath path: String) throws(BondFileError) -> BondFile {
        try open(atPath: path) { Glibc.write($0, $1, $2) }
    }

    /// `open`, writing with `write` (a test's failing one).
    static func open(atPath path: String, write: @escaping FileSystem.WriteCall) throws(BondFileError) -> BondFile {
        let lockPath = path + ".lock"
        try FileSystem.createDirectories(FileSystem.directory(of: path), for: path)
        let lock = try lock(lockPath, for: path)
        do {
            let document = try read(atPath: path) ?? BondDocument()
            return BondFile(path: path, lockPath: lockPath, lock: lock, document: document, write: write)
        } catch {
            Glibc.close(lock)
            throw error
        }
    }

    /// The document in the file at `path`, or nil when there is no file; without
    /// locking it (for a reader such as `swift-att bonds list`) or creating anything.
    public static func read(atPath path: String) throws(BondFileError) -> BondDocument? {
        guard let bytes = try FileSystem.read(path) else { return nil }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .invalid(file: path, BondDocumentError("not UTF-8 text", at: ""))
        }
        do {
            return try BondDocument(parsing: text)
        } catch {
            throw .invalid(file: path, error)
        }
    }

    /// The document as it stands (as last written).
    public var document: BondDocument { state.withLock { $0.document } }

    /// Releases the lock; from then on nothing more is written (a change throws
    /// `.closed`). Close the hosts using the file first.
    public func close() {
        state.withLock { state in
            guard state.lock >= 0 else { return }
            Glibc.close(state.lock)
            state.lock = -1
        }
    }

    // MARK: SecurityStorage

    /// The identity and bonds of `adapter`; a new identity is generated and written
    /// first when the file has none for it.
    public func security(for adapter: AdapterIdentifier) throws(SecurityStorageError) -> StoredSecurity {
        do {
            return try storedSecurity(for: adapter)
        } catch {
            throw error.storageError
        }
    }

    func storedSecurity(for adapter: AdapterIdentifier) throws(BondFileError) -> StoredSecurity {
        let path = self.path
        return try state.withLock { (state: inout State) throws(BondFileError) -> StoredSecurity in
            if state.document[adapter] == nil {
                var next = state.document
                next.adapters.append(BondDocument.Adapter(name: adapter, identity: .generate()))
                try write(next, &state)
            }
            let stored = state.document[adapter]!
            if let store = state.stores[adapter] { return StoredSecurity(identity: stored.identity, bonds: store) }
            let store = BondStore(stored.bonds, gattClients: stored.gattClients) {
                [weak self] (contents: BondStore.Contents) throws(SecurityStorageError) in
                guard let self else { throw BondFileError.closed(file: path).storageError }
                do throws(BondFileError) {
                    try self.update { $0.setContents(contents, of: adapter) }
                } catch {
                    throw error.storageError
                }
            }
            state.stores[adapter] = store
            return StoredSecurity(identity: stored.identity, bonds: store)
        }
    }

    // MARK: Changes

    /// Changes the document and writes it (atomically) when it changed; on failure
    /// neither the file nor the document changes.
    @discardableResult
    public func update<R: Sendable>(_ body: (inout BondDocument) -> R) throws(BondFileError) -> R {
        try state.withLock { (state: inout State) throws(BondFileError) -> R in
            var next = state.document
            let result = body(&next)
            if next != state.document { try write(next, &state) }
            return result
        }
    }

    private func write(_ document: BondDocument, _ state: inout State) throws(BondFileError) {
        guard state.lock >= 0 else { throw .closed(file: path) }
        try FileSystem.replace(path, with: Array(document.serialized().utf8), write: state.write)
        state.document = document
    }

    /// How long a held lock is tried again before the file counts as in use.
    ///
    /// A lock released by `close()` can outlive it for a moment: a thread of the same
    /// process that forks to start a program (as `Process` does) gives the child a copy of
    /// the lock's descriptor until the child's `exec` closes it, and `flock` is released
    /// only with the last copy. A second `open` in that window met a lock nobody held any
    /// more (a test reopening its own file failed under load), so a held lock is tried
    /// again for this long; a lock another process really holds is refused after it.
    static let lockGrace: Duration = .milliseconds(250)

    /// Opens and locks `lockPath` (0600), or says who holds it.
    private static func lock(_ lockPath: String, for path: String) throws(BondFileError) -> Int32 {
        let fd = Glibc.open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd < 0 { throw .system(action: "locking", file: path, call: "open \(lockPath)", .current) }
        let clock = ContinuousClock()
        let giveUp = clock.now.advanced(by: lockGrace)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let failure = Errno.current
            if failure.rawValue == EWOULDBLOCK, clock.now < giveUp {
                usleep(5_000)
                continue
            }
            Glibc.close(fd)
            if failure.rawValue == EWOULDBLOCK { throw .inUse(file: path, lockFile: lockPath) }
            throw .system(action: "locking", file: path, call: "flock", failure)
        }
        return fd
    }
}
