#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import SwiftATTBondFile
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost
import SwiftATTSecurity
import SwiftATTTransport
import Synchronization
import Testing

/// The bond file on disk: identities made once and kept, bonds written as they change,
/// atomic replacement, the file's mode, the lock, and corrupt files left alone.
@Suite("BondFile")
struct BondFileTests {
    /// A fresh directory per test, removed afterwards.
    final class Scratch {
        let directory: String
        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("bond-file-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: directory) }
        func path(_ name: String) -> String { directory + "/" + name }
    }

    static let adapter = AdapterIdentifier("F0:F0:F0:F0:00:01")
    static let other = AdapterIdentifier("tcp:127.0.0.1:9000")
    static let bond = Bond(peer: BluetoothAddress(0xD122_3344_5566, kind: .random),
                           centralKey: LongTermKey(key: 0x1234), peripheralKey: LongTermKey(key: 0x1234),
                           peerIdentityResolvingKey: 0x5678, authenticated: false, secureConnections: true, keySize: 16)

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        #expect(stat(path, &info) == 0, "stat \(path)")
        return info.st_mode & 0o777
    }

    static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    // MARK: Identities and bonds

    @Test func openingAMissingFileCreatesItsDirectoryButWritesNothingYet() throws {
        let scratch = try Scratch()
        let path = scratch.path("a/b/bonds.json")
        let file = try BondFile.open(atPath: path)
        defer { file.close() }
        #expect(file.document == BondDocument())
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(Self.mode(scratch.path("a")) == 0o700)
        #expect(Self.mode(scratch.path("a/b")) == 0o700)
        #expect(Self.mode(path + ".lock") == 0o600)
    }

    @Test func anAdaptersIdentityIsMadeOnceAndKept() throws {
        let scratch = try Scratch()
        let path = scratch.path("bonds.json")
        let file = try BondFile.open(atPath: path)
        let made = try file.security(for: Self.adapter).identity
        #expect(made.address.randomSubtype == .static)
        #expect(Self.mode(path) == 0o600)
        #expect(try file.security(for: Self.adapter).identity == made)
        let second = try file.security(for: Self.other).identity
        #expect(second != made)
        file.close()

        let again = try BondFile.open(atPath: path)
        defer { again.close() }
        #expect(again.document.adapters.map(\.name) == [Self.adapter, Self.other])
        #expect(try again.security(for: Self.adapter).identity == made)
        #expect(try again.security(for: Self.other).identity == second)
    }

    @Test func bondsAreWrittenAsTheyChange() throws {
        let scratch = try Scratch()
        let path = scratch.path("bonds.json")
        let file = try BondFile.open(atPath: path)
        defer { file.close() }
        let store = try file.security(for: Self.adapter).bonds
        try store.save(Self.bond)
        #expect(try BondFile.read(atPath: path)?[Self.adapter]?.bonds == [Self.bond])
        var renewed = Self.bond
        renewed.centralKey = LongTermKey(key: 0x9999)
        try store.save(renewed)
        #expect(try BondFile.read(atPath: path)?[Self.adapter]?.bonds == [renewed])
        // A resolvable private address of the peer names its bond.
        let resolvable = ResolvablePrivateAddress.generate(irk: 0x5678)
        #expect(try store.remove(resolvable))
        #expect(try BondFile.read(atPath: path)?[Self.adapter]?.bonds == [])
        try store.save(Self.bond)
        try store.removeAll()
        #expect(try BondFile.read(atPath: path)?[Self.adapter]?.bonds == [])
        #expect(Self.mode(path) == 0o600)
    }

    /// Two hosts of one process on one adapter share a list, so neither writes the
    /// other's bonds away.
    @Test func oneStorePerAdapter() throws {
        let scratch = try Scratch()
        let file = try BondFile.open(atPath: scratch.path("bonds.json"))
        defer { file.close() }
        #expect(try file.security(for: Self.adapter).bonds === file.security(for: Self.adapter).bonds)
        #expect(try file.security(for: Self.adapter).bonds !== file.security(for: Self.other).bonds)
    }

    @Test func bondsOfOneAdapterLeaveTheOthersAlone() throws {
        let scratch = try Scratch()
        let path = scratch.path("bonds.json")
        let file = try BondFile.open(atPath: path)
        defer { file.close() }
        try file.security(for: Self.adapter).bonds.save(Self.bond)
        try file.security(for: Self.other).bonds.removeAll()
        #expect(try BondFile.read(atPath: path)?[Self.adapter]?.bonds == [Self.bond])
    }

    @Test func updateEditsAndWritesTheDocument() throws {
        let scratch = try Scratch()
        let path = scratch.path("bonds.json")
        let file = try BondFile.open(atPath: path)
        defer { file.close() }
        try file.security(for: Self.adapter).bonds.save(Self.bond)
        let removed = try file.update { document -> Int in
            let count = document.allBonds.count
            document.setBonds([], of: Self.adapter)
            return count
        }
        #expect(removed == 1)
        #expect(try BondFile.read(atPath: path)?[Self.adapter]?.bonds == [])
    }

    // MARK: What moves as a host runs

    static let client = GATTBondedClient(
        subscriptions: [.init(valueHandle: 0x0010, characteristic: BluetoothUUID(0x2A37), configuration: .notification)],
        clientSupportedFeatures: [0x01], changeAware: true, databaseHash: 0x81CA_5A2F_F73B_D14B_641B_0897_4AFB_73BA)

    /// Counts the files a `BondFile` writes (each is one `write` call at this size).
    final class WriteCounter: Sendable {
        let count = Mutex(0)
        var call: FileSystem.WriteCall {
            { [self] fd, buffer, length in
                count.withLock { $0 += 1 }
                return Glibc.write(fd, buffer, length)
            }
        }
        var writes: Int { count.withLock { $0 } }
    }

    /// Sign counters and GATT state are staged in memory and written by a flush; a
    /// flush with nothing new, or a stage that changes nothing, writes nothing.
    @Test func stagedChangesAreWrittenByAFlushOnlyWhenTheyChangeSomething() throws {
        let scratch = try Scratch()
        let path = scratch.path("bonds.json")
        let counter = WriteCounter()
        let file = try BondFile.open(atPath: path, write: counter.call)
        defer { file.close() }
        let store = try file.security(for: Self.adapter).bonds
        try store.save(Self.bond)
        let written = counter.writes
        #expect(written == 2, "the identity, then the bond")

        #expect(store.stage(Self.bond))
        #expect(!store.hasUnsavedChanges, "the same bond changes nothing")
        var counted = Self.bond
        counted.peerSignCounter = 41
        counted.localSignCounter = 7
        #expect(store.stage(counted))
        #expect(store.stageGATTClient(Self.client, of: Self.bond.peer))
        #expect(store.hasUnsavedChanges)
        #expect(counter.writes == written, "staged, not written")
        #expect(try BondFile.read(atPath: path)?[Self.adapter]?.gattClients.isEmpty == true)

        try store.flush()
        #expect(counter.writes == written + 1)
        #expect(!store.hasUnsavedChanges)
        let adapter = try #require(try BondFile.read(atPath: path)?[Self.adapter])
        #expect(adapter.bonds == [counted])
        #expect(adapter.gattClients == [Self.bond.peer: Self.client])

        try store.flush()
        #expect(store.stageGATTClient(Self.client, of: Self.bond.peer))
        #expect(!store.hasUnsavedChanges)
        try store.flush()
        #expect(counter.writes == written + 1, "nothing new: nothing written")
    }

    /// A late change for a bond that is gone does not bring it back.
    @Test func aStageForAPeerWithoutABondIsRefused() throws {
        let scratch = try Scratch()
        let file = try BondFile.open(atPath: scratch.path("bonds.json"))
        defer { file.close() }
        let store = try file.security(for: Self.adapter).bonds
        #expect(!store.stage(Self.bond))
        #expect(!store.stageGATTClient(Self.client, of: Self.bond.peer))
        #expect(!store.hasUnsavedChanges)
        #expect(store.bonds.isEmpty)
    }

    /// The GATT state goes with its bond, on a removal written at once.
    @Test func removingABondRemovesItsGATTState() throws {
        let scratch = try Scratch()
        let path = scratch.path("bonds.json")
        let file = try BondFile.open(atPath: path)
        defer { file.close() }
        let store = try file.security(for: Self.adapter).bonds
        try store.save(Self.bond)
        store.stageGATTClient(Self.client, of: Self.bond.peer)
        try store.flush()
        #expect(try store.remove(Self.bond.peer))
        #expect(store.gattClient(of: Self.bond.peer) == nil)
        #expect(try BondFile.read(atPath: path)?[Self.adapter] == BondDocument.Adapter(
            name: Self.adapter, identity: file.document[Self.adapter]!.identity))
    }

    /// The next run's store starts with what this run's kept.
    @Test func theNextRunsStoreHasTheGATTStateAndCounters() throws {
        let scratch = try Scratch()
        let path = scratch.path("bonds.json")
        var counted = Self.bond
        counted.peerSignCounter = 3
        do {
            let file = try BondFile.open(atPath: path)
            defer { file.close() }
            let store = try file.security(for: Self.adapter).bonds
            try store.save(Self.bond)
            store.stage(counted)
            store.stageGATTClient(Self.client, of: Self.bond.peer)
            try store.flush()
        }
        let file = try BondFile.open(atPath: path)
        defer { file.close() }
        let store = try file.security(for: Self.adapter).bonds
        #expect(store.contents == BondStore.Contents(bonds: [counted], gattClients: [Self.bond.peer: Self.client]))
    }

    /// A flush that fails keeps the changes staged, for the next one.
    @Test func aFailedFlushKeepsTheChangesForTheNext() throws {
        let scratch = try Scratch()
        let path = scratch.path("bonds.json")
        let failing = Atomic<Bool>(false)
        let file = try BondFile.open(atPath: path) { fd, buffer, count in
            if failing.load(ordering: .relaxed) {
                errno = ENOSPC
                return -1
            }
            return Glibc.write(fd, buffer, count)
        }
        defer { file.close() }
        let store = try file.security(for: Self.adapter).bonds
        try store.save(Self.bond)
        store.stageGATTClient(Self.client, of: Self.bond.peer)
        failing.store(true, ordering: .relaxed)
        #expect(throws: SecurityStorageError("writing \(path) failed: write: ENOSPC (No space left on device)")) {
            try store.flush()
        }
        #expect(store.hasUnsavedChanges)
        #expect(store.gattClient(of: Self.bond.peer) == Self.client)
        failing.store(false, ordering: .relaxed)
        try store.flush()
        #expect(try BondFile.read(atPath: path)?[Self.adapter]?.gattClients == [Self.bond.peer: Self.client])
    }

    // MARK: The lock

    /// A lock let go within the grace period is taken, not refused: what a `close()`
    /// looks like while another thread's child process still holds a copy of the lock.
    @Test func aLockReleasedAMomentLaterIsTaken() throws {
        let scratch = try Scratch()
        let path = scratch.path("bonds.json")
        let holder = Glibc.open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        try #require(holder >= 0)
        try #require(flock(holder, LOCK_EX | LOCK_NB) == 0)
        let release = Thread {
            usleep(50_000)
            Glibc.close(holder)
        }
        release.start()
        let file = try BondFile.open(atPath: path)
        file.close()
    }

    @Test func aSecondOpenerIsTurnedAwayUntilTheFirstCloses() throws {
        let scratch = try Scratch()
        let path = scratch.path("bonds.json")
        let first = try BondFile.open(atPath: path)
        _ = try first.security(for: Self.adapter)
        let before = try Self.bytes(path)
        #expect(throws: BondFileError.inUse(file: path, lockFile: path + ".lock")) { try BondFile.open(atPath: path) }
        do {
            _ = try BondFile.open(atPath: path)
        } catch {
            #expect(error.description == "\(path) is in use: another swift-att process holds its lock (\(path).lock)")
        }
        #expect(try Self.bytes(path) == before)
        // Reading needs no lock.
        #expect(try BondFile.read(atPath: path) == first.document)
        first.close()
        let second = try BondFile.open(atPath: path)
        second.close()
    }

    @Test func aClosedFileKeepsNothingMore() throws {
        let scratch = try Scratch()
        let path = scratch.path("bonds.json")
        let file = try BondFile.open(atPath: path)
        let store = try file.security(for: Self.adapter).bonds
        let before = try Self.bytes(path)
        file.close()
        #expect(throws: SecurityStorageError("\(path) was closed: the change was not kept")) { try store.save(Self.bond) }
        #expect(store.bonds == [Self.bond])
        #expect(try Self.bytes(path) == before)
        #expect(throws: BondFileError.closed(file: path)) { try file.update { $0.adapters.removeAll() } }
    }

    // MARK: Corrupt files

    static let corrupt: [String] = [
        "",
        "{\"version\": 1, \"identities\": {",
        "{\"version\": 2, \"identities\": {}}",
        "{\"version\": 1, \"identities\": {\"hci0\": {\"address\": \"C0:00:00:00:00:01\", \"addressType\": \"random\", \"irk\": 5, \"bonds\": []}}}",
        "{\"version\": 1, \"identities\": {\"hci0\": {\"address\": \"C0:00:00:00:00:01\", \"addressType\": \"random\", \"irk\": \"00\", \"bonds\": []}}}",
        "[]",
    ]

    @Test("a corrupt file stops the opening and is left byte-identical", arguments: corrupt)
    func corruptFile(_ text: String) throws {
        let scratch = try Scratch()
        let path = scratch.path("bonds.json")
        try Self.write(text, to: path)
        let expected: BondDocumentError
        do {
            _ = try BondDocument(parsing: text)
            Issue.record("the text parsed")
            return
        } catch {
            expected = error
        }
        #expect(throws: BondFileError.invalid(file: path, expected)) { try BondFile.open(atPath: path) }
        #expect(throws: BondFileError.invalid(file: path, expected)) { try BondFile.read(atPath: path) }
        #expect(try Self.bytes(path) == Array(text.utf8))
        // The failed opening let the lock go.
        let probe = Glibc.open(path + ".lock", O_RDWR)
        defer { Glibc.close(probe) }
        #expect(flock(probe, LOCK_EX | LOCK_NB) == 0)
    }

    @Test func theErrorNamesTheFileAndThePath() throws {
        let scratch = try Scratch()
        let path = scratch.path("bonds.json")
        try Self.write(Self.corrupt[4], to: path)
        do {
            _ = try BondFile.open(atPath: path)
            Issue.record("opened")
        } catch {
            #expect(error.description == "\(path): identities[\"hci0\"].irk: expected 32 hex digits, found 2 (the file is left as it is: mend it, or move it away to start afresh)")
        }
    }

    @Test func textThatIsNotUTF8IsRefused() throws {
        let scratch = try Scratch()
        let path = scratch.path("bonds.json")
        let bytes: [UInt8] = [0x7B, 0xFF, 0x7D]
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(throws: BondFileError.invalid(file: path, BondDocumentError("not UTF-8 text", at: ""))) {
            try BondFile.open(atPath: path)
        }
        #expect(try Self.bytes(path) == bytes)
    }

    @Test func aFileThatCannotBeReadIsNamedWithTheSystemsReason() throws {
        let scratch = try Scratch()
        let path = scratch.path("bonds.json")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        do {
            _ = try BondFile.read(atPath: path)
            Issue.record("read a directory")
        } catch {
            #expect(error.description == "reading \(path) failed: read: EISDIR (Is a directory)")
        }
    }

    // MARK: Atomic replacement

    /// A write that stops part-way (the disk filled up) leaves the old file whole and
    /// no temporary file behind.
    @Test func aWriteThatFailsMidwayLeavesTheOldFile() throws {
        let scratch = try Scratch()
        let path = scratch.path("bonds.json")
        try Self.write(try BondDocumentTests.goldenText(), to: path)
        let before = try Self.bytes(path)
        let failing: FileSystem.WriteCall = { fd, buffer, count in
            if count > 64 { return Glibc.write(fd, buffer, count / 2) }
            errno = ENOSPC
            return -1
        }
        #expect(throws: BondFileError.system(action: "writing", file: path, call: "write", Errno(ENOSPC))) {
            try FileSystem.replace(path, with: Array(BondDocument().serialized().utf8) + [UInt8](repeating: 0x20, count: 4096),
                                   write: failing)
        }
        #expect(try Self.bytes(path) == before)
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))

        // The same through a store: the bond stays in memory, the error says why the
        // file does not have it, and the file and document are as they were.
        let file = try BondFile.open(atPath: path, write: failing)
        defer { file.close() }
        let document = file.document
        let store = try file.security(for: AdapterIdentifier("F0:F0:F0:F0:00:01")).bonds
        #expect(throws: SecurityStorageError("writing \(path) failed: write: ENOSPC (No space left on device)")) {
            try store.save(Self.bond)
        }
        #expect(store.bond(for: Self.bond.peer) == Self.bond)
        #expect(file.document == document)
        #expect(try Self.bytes(path) == before)
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
    }

    /// A new identity that cannot be written is not handed out: the next run would
    /// come back under another.
    @Test func anIdentityThatCannotBeKeptIsNotUsed() throws {
        let scratch = try Scratch()
        let path = scratch.path("bonds.json")
        let file = try BondFile.open(atPath: path) { _, _, _ in
            errno = EIO
            return -1
        }
        defer { file.close() }
        #expect(throws: SecurityStorageError("writing \(path) failed: write: EIO (Input/output error)")) {
            try file.security(for: Self.adapter)
        }
        #expect(file.document == BondDocument())
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aStaleTemporaryFileIsReplacedAndTheModeIsAlways0600() throws {
        let scratch = try Scratch()
        let path = scratch.path("bonds.json")
        try Self.write("left by a process that died", to: path + ".tmp")
        try Self.write("{\"version\": 1, \"identities\": {}}", to: path)
        chmod(path, 0o644)
        let file = try BondFile.open(atPath: path)
        defer { file.close() }
        _ = try file.security(for: Self.adapter)
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
        #expect(Self.mode(path) == 0o600)
        #expect(try BondFile.read(atPath: path)?.adapters.count == 1)
    }

    @Test func directoryOfAPath() {
        #expect(FileSystem.directory(of: "bonds.json") == ".")
        #expect(FileSystem.directory(of: "/bonds.json") == "/")
        #expect(FileSystem.directory(of: "a/b/bonds.json") == "a/b")
        #expect(FileSystem.directory(of: "/home/u/.local/share/swift-att/bonds/bonds.json") == "/home/u/.local/share/swift-att/bonds")
    }
}
