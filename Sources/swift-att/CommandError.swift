/// Why a command failed: the exit status says which kind (sysexits-style 1 and 2).
enum CommandError: Error {
    /// The command line itself is wrong: unknown command or option, missing argument. Exit 2.
    case usage(String)
    /// The data given is not what it should be: bad hex, a malformed PDU, bad JSON. Exit 1.
    case input(String)

    var message: String {
        switch self {
        case let .usage(m), let .input(m): return m
        }
    }

    var exitCode: Int32 {
        switch self {
        case .usage: return 2
        case .input: return 1
        }
    }
}
