import SwiftATTJSON
import SwiftATTCore
import SwiftATTGATT

/// A GATT database described in a JSON file, for `swift-att peripheral --database`: the
/// services to serve, the name and appearance to advertise. The format is documented in
/// Documentation/JSON.md ("A GATT database in JSON"); examples are in Fixtures/gatt/.
///
/// Values live in the server: a client's write replaces the stored value (within the
/// characteristic's length rule) and is handed to `onWrite`, so the tool can print it.
public struct DatabaseFile: Sendable {
    /// A client wrote a characteristic's or descriptor's value.
    public struct Write: Sendable, Hashable {
        /// The characteristic's UUID (for a descriptor, the characteristic it belongs to).
        public let characteristic: BluetoothUUID
        /// The descriptor's UUID when a descriptor was written.
        public let descriptor: BluetoothUUID?
        /// The attribute handle written.
        public let handle: UInt16
        /// The whole new value.
        public let value: [UInt8]
        /// How the client wrote it: a Write Request, a Write Command, a signed or a queued write.
        public let kind: GATTWriteContext.Kind

        /// A write as the server saw it.
        public init(characteristic: BluetoothUUID, descriptor: BluetoothUUID?, handle: UInt16, value: [UInt8], kind: GATTWriteContext.Kind) {
            self.characteristic = characteristic
            self.descriptor = descriptor
            self.handle = handle
            self.value = value
            self.kind = kind
        }
    }

    /// The GAP Device Name, and the advertised name; `nil` when the file has none.
    public let name: String?
    /// The GAP Appearance; 0 (unknown) by default.
    public let appearance: UInt16
    /// The service UUIDs to advertise: the file's `advertise`, or by default its primary
    /// services' 16-bit UUIDs (or, without any, the first 128-bit one).
    public let advertisedServices: [BluetoothUUID]
    /// The services in file order, built.
    public let services: [GATTService]
    /// Names the file gives its UUIDs (`"name"` keys), for printing.
    public let names: [BluetoothUUID: String]

    /// Parses `text`. `onWrite` hears every write a client makes to a value the file
    /// lets clients write; it runs on the host's loop, so it should only hand it on.
    public static func parse(
        _ text: String, onWrite: @escaping @Sendable (Write) -> Void = { _ in }
    ) throws(DatabaseFileError) -> DatabaseFile {
        let json: JSONValue
        do {
            json = try JSONValue.parse(text)
        } catch {
            throw DatabaseFileError(error, in: text)
        }
        var reader = DatabaseFileReader(onWrite: onWrite)
        return try reader.read(json)
    }

    /// The database: GAP (with `name`, or the file's name, or "swift-att") and GATT, then
    /// the file's services.
    public func database(name: String? = nil) throws(DatabaseFileError) -> GATTDatabase {
        do {
            return try GATTDatabase(
                services: services,
                genericAccess: GATTGenericAccess(deviceName: name ?? self.name ?? "swift-att", appearance: appearance))
        } catch {
            throw DatabaseFileError(error.description, at: "services")
        }
    }

    init(name: String?, appearance: UInt16, advertisedServices: [BluetoothUUID], services: [GATTService], names: [BluetoothUUID: String]) {
        self.name = name
        self.appearance = appearance
        self.advertisedServices = advertisedServices
        self.services = services
        self.names = names
    }
}
