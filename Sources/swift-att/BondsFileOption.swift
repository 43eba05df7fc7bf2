#if canImport(Glibc)
import Glibc
#endif
import SwiftATTBondFile
import SwiftATTHost
import Synchronization

/// `--bonds FILE`, for every command that talks to a controller and for `swift-att
/// bonds`: where this host's identity and bonds are kept. By default
/// `$XDG_DATA_HOME/swift-att/bonds/bonds.json`, or `~/.local/share/...` without it (the
/// XDG Base Directory rule: a relative XDG_DATA_HOME is ignored).
enum BondsFileOption {
    static let name = "--bonds"

    static func path(_ args: Arguments) -> String {
        args.option(name) ?? defaultPath
    }

    static var defaultPath: String {
        if let data = ControllerSession.environment("XDG_DATA_HOME"), data.hasPrefix("/") {
            return data + "/swift-att/bonds/bonds.json"
        }
        return home + "/.local/share/swift-att/bonds/bonds.json"
    }

    /// $HOME, or the password database's home directory when it is unset.
    static var home: String {
        if let home = ControllerSession.environment("HOME"), !home.isEmpty { return home }
        if let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir { return String(cString: directory) }
        return "."
    }

    /// A bond file error as a command's: a file that is not a bond file, or cannot be
    /// read, is bad input (exit 1, as for --database); a file another process holds, or
    /// one that cannot be written, is a failure of the host's resources (exit 3, as for
    /// an adapter another program holds).
    static func commandError(_ error: BondFileError) -> CommandError {
        switch error {
        case .invalid, .system(action: "reading", _, _, _):
            return .input(error.description)
        case .inUse:
            return .failure("\(error.description); stop it, or give this one a file of its own with --bonds FILE")
        case .system, .closed:
            return .failure(error.description)
        }
    }
}

/// The bond file of a command that runs a host, opened only when the host asks for the
/// adapter's identity — after the transport opened and the controller named itself —
/// so that an adapter that cannot be opened is reported as such rather than hidden
/// behind a bond file another swift-att holds. Keeps the file's own error, for the
/// exit status the host's error alone would not tell.
final class CommandBondFile: SecurityStorage {
    let path: String
    private let state = Mutex<(file: BondFile?, failure: BondFileError?)>((nil, nil))

    init(path: String) {
        self.path = path
    }

    func security(for adapter: AdapterIdentifier) throws(SecurityStorageError) -> StoredSecurity {
        let path = self.path
        let file = try state.withLock { (state) throws(SecurityStorageError) -> BondFile in
            if let file = state.file { return file }
            do throws(BondFileError) {
                let file = try BondFile.open(atPath: path)
                state.file = file
                return file
            } catch {
                state.failure = error
                throw SecurityStorageError(error.description)
            }
        }
        return try file.security(for: adapter)
    }

    /// The command's error for a host that failed to start: the bond file's own when
    /// that was the cause.
    func commandError(_ error: ControllerError) -> CommandError {
        if case .securityStorage = error, let failure = state.withLock({ $0.failure }) {
            return BondsFileOption.commandError(failure)
        }
        return .failure(error.description)
    }

    /// Lets the file go (the process's end would too); call once the host is closed.
    func close() {
        state.withLock { $0.file?.close() }
    }
}
