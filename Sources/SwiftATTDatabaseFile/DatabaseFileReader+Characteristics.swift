import SwiftATTPDU
import SwiftATTJSON
import SwiftATTCore
import SwiftATTGATT

// Characteristics, descriptors, values and permissions of a database file.
extension DatabaseFileReader {
    static let characteristicKeys = ["uuid", "name", "properties", "permissions", "hex", "text", "maxLength", "fixedLength", "descriptors"]
    static let descriptorKeys = ["type", "uuid", "name", "permissions", "hex", "text", "maxLength", "fixedLength",
                                 "format", "exponent", "unit", "namespace", "description"]

    /// Core 5.4 Vol 3 Part G Table 3.5 and, for the last two, Table 3.11 (extended
    /// properties), in the words the file uses.
    static let propertyNames: [(String, GATTCharacteristic.Properties)] = [
        ("broadcast", .broadcast), ("read", .read), ("write-without-response", .writeWithoutResponse),
        ("write", .write), ("notify", .notify), ("indicate", .indicate),
        ("authenticated-signed-writes", .authenticatedSignedWrites),
    ]
    static let extendedPropertyNames: [(String, GATTCharacteristic.ExtendedProperties)] = [
        ("reliable-write", .reliableWrite), ("writable-auxiliaries", .writableAuxiliaries),
    ]

    /// Presentation Format `format` names (Assigned Numbers §2.4.1).
    static let formatNames: [String: UInt8] = [
        "boolean": 0x01, "uint2": 0x02, "uint4": 0x03, "uint8": 0x04, "uint12": 0x05, "uint16": 0x06,
        "uint24": 0x07, "uint32": 0x08, "uint48": 0x09, "uint64": 0x0A, "uint128": 0x0B, "sint8": 0x0C,
        "sint12": 0x0D, "sint16": 0x0E, "sint24": 0x0F, "sint32": 0x10, "sint48": 0x11, "sint64": 0x12,
        "sint128": 0x13, "float32": 0x14, "float64": 0x15, "sfloat": 0x16, "float": 0x17, "duint16": 0x18,
        "utf8s": 0x19, "utf16s": 0x1A, "struct": 0x1B, "medfloat16": 0x1C,
    ]

    mutating func characteristic(_ json: JSONValue, at path: String) throws(DatabaseFileError) -> GATTCharacteristic {
        let object = try DatabaseFileObject(json, at: path, keys: Self.characteristicKeys)
        let uuid = try object.uuid("uuid")
        if let label = try object.string("name") { names[uuid] = label }

        var properties: GATTCharacteristic.Properties = []
        var extended: GATTCharacteristic.ExtendedProperties = []
        guard let list = try object.array("properties") else { throw DatabaseFileError("missing", at: object.pathOf("properties")) }
        for entry in list {
            guard case let .string(word) = entry.value else {
                throw DatabaseFileError("expected a property name, found \(entry.value.kindDescription)", at: entry.path)
            }
            if let bit = Self.propertyNames.first(where: { $0.0 == word })?.1 {
                properties.insert(bit)
            } else if let bit = Self.extendedPropertyNames.first(where: { $0.0 == word })?.1 {
                extended.insert(bit)
            } else {
                let known = (Self.propertyNames.map(\.0) + Self.extendedPropertyNames.map(\.0)).joined(separator: ", ")
                throw DatabaseFileError("unknown property '\(word)' (expected \(known))", at: entry.path)
            }
        }
        let permissions = try Self.permissions(object)
        let writable = permissions?.write != nil
            || !properties.isDisjoint(with: [.write, .writeWithoutResponse, .authenticatedSignedWrites])
            || extended.contains(.reliableWrite)

        var descriptors: [GATTDescriptor] = []
        var userDescriptions = 0
        for entry in try object.array("descriptors") ?? [] {
            let descriptor = try self.descriptor(entry.value, at: entry.path, of: uuid)
            if descriptor.uuid == BluetoothUUID(0x2901) {
                userDescriptions += 1
                if userDescriptions > 1 { throw DatabaseFileError("a characteristic has at most one user description", at: entry.path) }
            }
            descriptors.append(descriptor)
        }

        var handler: GATTWriteHandler? = nil
        if writable {
            let report = onWrite
            handler = { context in
                report(DatabaseFile.Write(characteristic: uuid, descriptor: nil, handle: context.handle, value: context.value, kind: context.kind))
                return nil
            }
        }
        let value = try Self.value(object, onWrite: handler)
        return GATTCharacteristic(
            uuid: uuid, properties: properties, extendedProperties: extended, permissions: permissions,
            value: value, descriptors: descriptors)
    }

    private mutating func descriptor(_ json: JSONValue, at path: String, of characteristic: BluetoothUUID) throws(DatabaseFileError) -> GATTDescriptor {
        let object = try DatabaseFileObject(json, at: path, keys: Self.descriptorKeys)
        let formatKeys = ["format", "exponent", "unit", "namespace", "description"]
        func refuse(_ keys: [String], for kind: String) throws(DatabaseFileError) {
            for key in keys where object.has(key) {
                throw DatabaseFileError("not a key of \(kind)", at: object.pathOf(key))
            }
        }
        switch (try object.string("type"), object.has("uuid")) {
        case (_?, true):
            throw DatabaseFileError("give \"type\" or \"uuid\", not both", at: object.pathOf("uuid"))
        case (nil, false):
            throw DatabaseFileError("missing: give \"type\" (user-description, presentation-format) or \"uuid\"", at: object.pathOf("type"))
        case ("user-description"?, false):
            try refuse(formatKeys + ["hex", "permissions", "maxLength", "fixedLength", "name"], for: "a user description")
            guard let text = try object.string("text") else { throw DatabaseFileError("missing", at: object.pathOf("text")) }
            guard text.utf8.count <= ATTLimits.maximumAttributeValueLength else {
                throw DatabaseFileError("\(text.utf8.count) octets; a value holds at most 512", at: object.pathOf("text"))
            }
            return .userDescription(text)
        case ("presentation-format"?, false):
            try refuse(["hex", "text", "permissions", "maxLength", "fixedLength", "name"], for: "a presentation format")
            let format: UInt8
            switch object.optional("format") {
            case nil:
                throw DatabaseFileError("missing", at: object.pathOf("format"))
            case let .string(name)?:
                guard let number = Self.formatNames[name] else {
                    throw DatabaseFileError("unknown format '\(name)' (uint8, uint16, sint16, float32, utf8s, … or a number)", at: object.pathOf("format"))
                }
                format = number
            case let value?:
                format = UInt8(try DatabaseFileObject.integer(value, in: 0...255, at: object.pathOf("format")))
            }
            return .presentationFormat(GATTPresentationFormat(
                format: format, exponent: Int8(try object.integer("exponent", in: -128...127) ?? 0),
                unit: try object.uint16("unit") ?? 0x2700, namespace: UInt8(try object.integer("namespace", in: 0...255) ?? 1),
                description: try object.uint16("description") ?? 0))
        case let (type?, false):
            throw DatabaseFileError("unknown descriptor type '\(type)' (user-description, presentation-format; "
                                        + "other descriptors by \"uuid\")", at: object.pathOf("type"))
        case (nil, true):
            try refuse(formatKeys, for: "a descriptor given by uuid")
            let uuid = try object.uuid("uuid")
            if let short = uuid.uuid16, (0x2900...0x2905).contains(short) {
                throw DatabaseFileError(
                    "\(uuid) is defined by GATT: write \"type\": \"user-description\" or \"presentation-format\"; "
                        + "the server adds Extended Properties and the configuration descriptors itself", at: object.pathOf("uuid"))
            }
            if let label = try object.string("name") { names[uuid] = label }
            let permissions = try Self.permissions(object) ?? .readable
            var handler: GATTWriteHandler? = nil
            if permissions.write != nil {
                let report = onWrite
                handler = { context in
                    report(DatabaseFile.Write(characteristic: characteristic, descriptor: uuid, handle: context.handle,
                                              value: context.value, kind: context.kind))
                    return nil
                }
            }
            let value = try Self.value(object, onWrite: handler)
            return GATTDescriptor(uuid: uuid, permissions: permissions, value: value)
        }
    }

    /// `hex` or `text` (or neither: empty), within `maxLength` octets (512 by default) or
    /// always as long as given (`fixedLength`).
    static func value(_ object: DatabaseFileObject, onWrite: GATTWriteHandler?) throws(DatabaseFileError) -> GATTValue {
        var initial: [UInt8] = []
        var source = "hex"
        switch (try object.string("hex"), try object.string("text")) {
        case (_?, _?):
            throw DatabaseFileError("give \"hex\" or \"text\", not both", at: object.pathOf("text"))
        case let (hex?, nil):
            do {
                initial = try Hex.decode(hex)
            } catch {
                throw DatabaseFileError("\(error)", at: object.pathOf("hex"))
            }
        case let (nil, text?):
            initial = Array(text.utf8)
            source = "text"
        case (nil, nil):
            break
        }
        let limit = ATTLimits.maximumAttributeValueLength
        let maximum = try object.integer("maxLength", in: 0...limit)
        if try object.bool("fixedLength") == true {
            if maximum != nil { throw DatabaseFileError("give maxLength or fixedLength, not both", at: object.pathOf("fixedLength")) }
            guard initial.count <= limit else {
                throw DatabaseFileError("\(initial.count) octets; a value holds at most \(limit)", at: object.pathOf(source))
            }
            return .fixed(initial, onWrite: onWrite)
        }
        guard initial.count <= maximum ?? limit else {
            throw DatabaseFileError("\(initial.count) octets, longer than the maximum length \(maximum ?? limit)", at: object.pathOf(source))
        }
        return .bytes(initial, length: .variable(maximum: maximum ?? limit), onWrite: onWrite)
    }

    /// `"permissions": {"read": …, "write": …}`, each "none", "open", "encrypted",
    /// "authenticated", "authorized" or a list of the last three; a missing key keeps what
    /// the properties imply. `nil` when the object has no permissions at all.
    static func permissions(_ object: DatabaseFileObject) throws(DatabaseFileError) -> AttributePermissions? {
        guard let json = object.optional("permissions") else { return nil }
        let permissions = try DatabaseFileObject(json, at: object.pathOf("permissions"), keys: ["read", "write"])
        func access(_ key: String, default fallback: AttributePermissions.Access?) throws(DatabaseFileError) -> AttributePermissions.Access? {
            guard let value = permissions.optional(key) else { return fallback }
            let path = permissions.pathOf(key)
            var words: [(String, String)] = []
            switch value {
            case let .string(word): words = [(word, path)]
            case let .array(list):
                for (i, element) in list.enumerated() {
                    guard case let .string(word) = element else {
                        throw DatabaseFileError("expected a requirement, found \(element.kindDescription)", at: "\(path)[\(i)]")
                    }
                    words.append((word, "\(path)[\(i)]"))
                }
            default:
                throw DatabaseFileError("expected \"none\", \"open\" or requirements, found \(value.kindDescription)", at: path)
            }
            if words.map(\.0) == ["none"] { return nil }
            var requirements: AttributePermissions.Requirements = []
            for (word, at) in words {
                switch word {
                case "open": break
                case "encrypted": requirements.insert(.encryption)
                case "authenticated": requirements.insert(.authentication)
                case "authorized": requirements.insert(.authorization)
                case "secure-connections": requirements.insert(.secureConnections)
                default:
                    throw DatabaseFileError(
                        "unknown permission '\(word)' (none, open, encrypted, authenticated, secure-connections, authorized)", at: at)
                }
            }
            // Level 4 is defined with a 128-bit key (Core 5.4 Vol 3 Part C §10.2.1).
            return AttributePermissions.Access(requirements, minimumKeySize: requirements.contains(.secureConnections) ? 16 : 7)
        }
        // What the properties would give, filled in by GATTCharacteristic when nil; here
        // an explicit key replaces only its own half.
        return AttributePermissions(
            read: try access("read", default: object.has("properties") ? Self.impliedRead(object) : .open),
            write: try access("write", default: object.has("properties") ? Self.impliedWrite(object) : nil))
    }

    private static func words(_ object: DatabaseFileObject, _ key: String) -> [String] {
        guard case let .array(list)? = object.optional(key) else { return [] }
        return list.compactMap { if case let .string(s) = $0 { return s } else { return nil } }
    }

    private static func impliedRead(_ object: DatabaseFileObject) -> AttributePermissions.Access? {
        words(object, "properties").contains("read") ? .open : nil
    }

    private static func impliedWrite(_ object: DatabaseFileObject) -> AttributePermissions.Access? {
        let writes = ["write", "write-without-response", "authenticated-signed-writes", "reliable-write"]
        return words(object, "properties").contains(where: writes.contains) ? .open : nil
    }
}
