import SwiftATTCore

/// Characteristics by name, as a user types them: `heart-rate-measurement` for 2A37,
/// `hc-08-serial` for the seed's FFE1. Lower case, words joined by hyphens — a name that
/// needs no quoting in a shell and completes with Tab in `central shell`.
enum CharacteristicNames {
    /// "Heart Rate Measurement" → "heart-rate-measurement".
    static func slug(_ name: String) -> String {
        var slug = ""
        for character in name.lowercased() {
            if character.isLetter || character.isNumber {
                slug.append(character)
            } else if !slug.isEmpty, slug.last != "-" {
                slug.append("-")
            }
        }
        while slug.last == "-" { slug.removeLast() }
        return slug
    }

    /// The name a characteristic's UUID is typed as, when it has one.
    static func slug(for uuid: BluetoothUUID) -> String? {
        CentralTree.name(uuid).map(slug)
    }

    /// Every characteristic swift-att knows by name: the SIG's (0x2A00–0x2BFF) and the
    /// seeds' own. Built once, on the first name typed.
    static let uuidsBySlug: [String: BluetoothUUID] = {
        var table: [String: BluetoothUUID] = [:]
        for short in UInt16(0x2A00)...0x2BFF {
            let uuid = BluetoothUUID(short)
            if let name = uuid.assignedName { table[slug(name)] = uuid }
        }
        for (uuid, name) in CentralSession.names where uuid.assignedKind == nil || uuid.assignedKind == .characteristic {
            table[slug(name)] = table[slug(name)] ?? uuid
        }
        return table
    }()
}
