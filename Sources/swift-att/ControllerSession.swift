#if canImport(Glibc)
import Glibc
#endif
import SwiftATTHost
import SwiftATTTransport

/// Opening a controller from the command line, the same way for every command that talks
/// to one (info, peripheral, central): `--transport` (or $SWIFT_ATT_TRANSPORT, default
/// hci0) and `--btsnoop FILE`.
enum ControllerSession {
    static func specification(_ args: Arguments) throws(CommandError) -> TransportSpecification {
        let text = args.option("--transport") ?? environment("SWIFT_ATT_TRANSPORT") ?? "hci0"
        do {
            return try TransportSpecification(parsing: text)
        } catch {
            throw .usage(error.description)
        }
    }

    static func open(_ specification: TransportSpecification, capture: String?) async throws(CommandError) -> Controller {
        do {
            return try await Controller.open(specification, capturePath: capture)
        } catch {
            throw .failure(error.description)
        }
    }

    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }
}
