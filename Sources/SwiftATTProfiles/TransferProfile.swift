import SwiftATTAdvertising
import SwiftATTCore
import SwiftATTGATT

/// Seed 000's chunked text transfer (Apple's BTLE Transfer sample, as the iOS 7 Core
/// Bluetooth lesson builds it): one service with one notify characteristic. When a
/// central subscribes, the peripheral sends its text in chunks of at most ATT_MTU−3
/// octets (the sample's fixed `NOTIFY_MTU` of 20 is what ATT_MTU 23 leaves; a central that
/// negotiated a larger MTU gets fuller notifications, as the sample's later versions do
/// with `maximumUpdateValueLength`), each one only after the previous was accepted
/// (`updateValue` returning true, or the `.readyToUpdate` event after it returned false),
/// then the three octets "EOM". The central appends chunks until one equals "EOM"
/// (`TransferReceiver`).
///
/// Like the seed, the marker is in-band: a chunk that is exactly "EOM" ends the message.
public enum TransferProfile {
    /// `TRANSFER_SERVICE_UUID` in the sample's SERVICES.h.
    public static let service = BluetoothUUID(uuid128: 0xE20A39F4_73F5_4BC4_A12F_17D1AD07A961)
    /// `TRANSFER_CHARACTERISTIC_UUID`: notify.
    public static let characteristic = BluetoothUUID(uuid128: 0x08590F7E_DB05_467E_8757_72F6FAEB13D4)

    /// The end-of-message marker.
    public static let endOfMessage: [UInt8] = Array("EOM".utf8)
    /// The seed's `NOTIFY_MTU`: 20 octets, what ATT_MTU 23 leaves a notification.
    public static let defaultChunkSize = 20

    /// The longest chunk one notification carries on a link with `mtu`: ATT_MTU−3
    /// (Core 5.4 Vol 3 Part F §3.4.7.1), at most 512 (an attribute value's limit, §3.2.9).
    public static func chunkSize(mtu: Int) -> Int {
        min(max(mtu, 23) - 3, 512)
    }
    /// The name advertised and served as the GAP Device Name when the caller gives none.
    public static let defaultName = "swift-att Transfer"

    /// What the peripheral sends when given no text (the sample sends its text view's).
    public static let defaultText = """
        Core Bluetooth's transfer sample, served by swift-att: a peripheral that streams \
        this paragraph to whichever central subscribes, as much as fits in a notification, \
        waiting whenever the link's transmit queue is full and carrying on when it is \
        ready to update subscribers again, then sends EOM so the central knows it has \
        the whole text.
        """

    /// The profile's names for its UUIDs, for tools that print a database or a scan.
    public static let names: [BluetoothUUID: String] = [service: "Transfer", characteristic: "Transfer Data"]

    /// Flags, the 128-bit service UUID and as much of the name as fits (all of it in the
    /// scan response).
    public static func advertisement(name: String = defaultName) throws(ADEncodingError) -> ProfileAdvertisement {
        try ProfileAdvertisement(name: name, services: [service])
    }

    /// The Transfer service and the database that serves it (after GAP and GATT).
    public struct Server: Sendable {
        /// The service, to put in a database.
        public let service: GATTService
        /// The transfer characteristic: notify.
        public let characteristic: GATTCharacteristic
        /// The whole database: GAP, GATT and the profile's service.
        public let database: GATTDatabase

        /// A database serving the Transfer service under `name`.
        public init(name: String = TransferProfile.defaultName) throws(GATTDatabaseError) {
            // The sample's CBCharacteristicPropertyNotify, no value until sent.
            characteristic = GATTCharacteristic(uuid: TransferProfile.characteristic, properties: [.notify])
            service = GATTService(uuid: TransferProfile.service, characteristics: [characteristic])
            database = try GATTDatabase(services: [service], genericAccess: GATTGenericAccess(deviceName: name))
        }
    }
}
