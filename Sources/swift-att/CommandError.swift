/// Why a command failed: the exit status says which kind (1 bad data, 2 usage, 3 the
/// controller or transport failed, 4 the peer: not found, refused, or gone).
enum CommandError: Error {
    /// The command line itself is wrong: unknown command or option, missing argument. Exit 2.
    case usage(String)
    /// The data given is not what it should be: bad hex, a malformed PDU, bad JSON. Exit 1.
    case input(String)
    /// The controller, the transport or the link failed (no adapter, refused, timed out). Exit 3.
    case failure(String)
    /// The remote device: not found by the scan, its GATT server refused (an ATT error),
    /// or the link went down. Exit 4.
    case peer(String)

    var message: String {
        switch self {
        case let .usage(m), let .input(m), let .failure(m), let .peer(m): return m
        }
    }

    var exitCode: Int32 {
        switch self {
        case .usage: return 2
        case .input: return 1
        case .failure: return 3
        case .peer: return 4
        }
    }
}
