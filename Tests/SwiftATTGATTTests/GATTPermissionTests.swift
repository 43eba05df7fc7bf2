import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import Testing

/// Which error a client gets when several could apply. Core 5.4 Vol 3 Part F §3.4.1.1
/// leaves the choice to the implementation; this server answers Invalid Handle, then
/// Read/Write Not Permitted, then Insufficient Authorization, Insufficient
/// Authentication, Encryption Key Size Too Short, Insufficient Encryption (see
/// `GATTServer.readError`). Against `Fixtures.security` (handles in its comment).
@Suite("GATT server: permissions")
struct GATTPermissionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let handle: UInt16
        let security: GATTSecurityLevel
        let authorized: Bool
        /// The error code, or nil when the access succeeds.
        let error: UInt8?
        var testDescription: String { name }
    }

    static let none = GATTSecurityLevel.none
    static let enc7 = GATTSecurityLevel.encrypted(keySize: 7)
    static let enc16 = GATTSecurityLevel.encrypted(keySize: 16)
    static let auth7 = GATTSecurityLevel.authenticated(keySize: 7)
    static let auth16 = GATTSecurityLevel.authenticated(keySize: 16)

    static let reads: [Case] = [
        Case(name: "open", handle: 0x0003, security: none, authorized: false, error: nil),
        Case(name: "no such handle", handle: 0x0063, security: auth16, authorized: true, error: 0x01),
        Case(name: "write-only beats missing authentication", handle: 0x000D, security: none, authorized: false, error: 0x02),
        Case(name: "encryption: unencrypted link", handle: 0x0005, security: none, authorized: false, error: 0x0F),
        Case(name: "encryption: any key size", handle: 0x0005, security: enc7, authorized: false, error: nil),
        Case(name: "authentication: unencrypted link", handle: 0x0007, security: none, authorized: false, error: 0x05),
        Case(name: "authentication: encrypted, unauthenticated", handle: 0x0007, security: enc16, authorized: false, error: 0x05),
        Case(name: "authentication: authenticated", handle: 0x0007, security: auth7, authorized: false, error: nil),
        Case(name: "authorization: not authorized", handle: 0x0009, security: auth16, authorized: false, error: 0x08),
        Case(name: "authorization: authorized, no encryption needed", handle: 0x0009, security: none, authorized: true, error: nil),
        Case(name: "key size: unencrypted is Insufficient Encryption", handle: 0x000B, security: none, authorized: false, error: 0x0F),
        Case(name: "key size: 7 < 16", handle: 0x000B, security: enc7, authorized: false, error: 0x0C),
        Case(name: "key size: 16", handle: 0x000B, security: enc16, authorized: false, error: nil),
        Case(name: "all: authorization first", handle: 0x000F, security: none, authorized: false, error: 0x08),
        Case(name: "all: then authentication", handle: 0x000F, security: none, authorized: true, error: 0x05),
        Case(name: "all: authentication before key size", handle: 0x000F, security: enc7, authorized: true, error: 0x05),
        Case(name: "all: then key size", handle: 0x000F, security: auth7, authorized: true, error: 0x0C),
        Case(name: "all: satisfied", handle: 0x000F, security: auth16, authorized: true, error: nil),
    ]

    static let writes: [Case] = [
        Case(name: "read-only", handle: 0x0003, security: auth16, authorized: true, error: 0x03),
        Case(name: "a declaration", handle: 0x0002, security: auth16, authorized: true, error: 0x03),
        Case(name: "no such handle", handle: 0x0063, security: none, authorized: false, error: 0x01),
        Case(name: "encryption: unencrypted link", handle: 0x0005, security: none, authorized: false, error: 0x0F),
        Case(name: "encryption: encrypted", handle: 0x0005, security: enc7, authorized: false, error: nil),
        Case(name: "write-only with authentication: missing", handle: 0x000D, security: enc16, authorized: false, error: 0x05),
        Case(name: "write-only with authentication: present", handle: 0x000D, security: auth7, authorized: false, error: nil),
        Case(name: "authorization", handle: 0x0009, security: auth16, authorized: false, error: 0x08),
        Case(name: "all: authorization first", handle: 0x000F, security: none, authorized: false, error: 0x08),
        Case(name: "all: key size", handle: 0x000F, security: auth7, authorized: true, error: 0x0C),
        Case(name: "all: satisfied", handle: 0x000F, security: auth16, authorized: true, error: nil),
    ]

    static func server(_ c: Case) throws -> GATTServer {
        let server = GATTServer(database: try Fixtures.security())
        server.connect(1, security: c.security, authorized: c.authorized)
        return server
    }

    @Test("Read Request", arguments: reads)
    func read(_ c: Case) throws {
        let h = handleText(c.handle.byteSwapped)
        let want = c.error.map { "01 0a \(h) " + Hex.encode([$0]) } ?? "0b 01"
        #expect(try Self.server(c).respond("0a \(h)") == (try hex(want)))
    }

    @Test("Read Blob, Read Multiple and Read By Type apply the same order", arguments: reads.filter { $0.handle != 0x0063 })
    func otherReads(_ c: Case) throws {
        let server = try Self.server(c)
        let h = handleText(c.handle.byteSwapped)
        let code = c.error.map { Hex.encode([$0]) }
        #expect(try server.respond("0c \(h) 0000") == (try hex(code.map { "01 0c \(h) \($0)" } ?? "0d 01")))
        #expect(try server.respond("0e 0300 \(h)") == (try hex(code.map { "01 0e \(h) \($0)" } ?? "0f 01 01")))
        let type = try #require(try Fixtures.security().attribute(at: c.handle)?.type.encoded())
        #expect(try server.respond("08 0100 ffff \(Hex.encode(type))") == (try hex(code.map { "01 08 \(h) \($0)" } ?? "09 03 \(h) 01")))
    }

    @Test("Write Request", arguments: writes)
    func write(_ c: Case) throws {
        let h = handleText(c.handle.byteSwapped)
        let want = c.error.map { "01 12 \(h) " + Hex.encode([$0]) } ?? "13"
        #expect(try Self.server(c).respond("12 \(h) 02") == (try hex(want)))
    }

    @Test("Prepare Write checks the same permissions when it queues", arguments: writes)
    func prepare(_ c: Case) throws {
        let h = handleText(c.handle.byteSwapped)
        let want = c.error.map { "01 16 \(h) " + Hex.encode([$0]) } ?? "17 \(h) 0000 02"
        #expect(try Self.server(c).respond("16 \(h) 0000 02") == (try hex(want)))
    }

    @Test("security changes during a connection take effect at once")
    func upgrade() throws {
        let server = GATTServer(database: try Fixtures.security())
        server.connect(1)
        #expect(try server.respond("0a 0500") == "010a05000f")
        server.setSecurity(.encrypted(keySize: 16), for: 1)
        #expect(try server.respond("0a 0500") == "0b01")
        #expect(try server.respond("0a 0900") == "010a090008")
        server.setAuthorized(true, for: 1)
        #expect(try server.respond("0a 0900") == "0b01")
        server.setSecurity(.none, for: 1)
        #expect(try server.respond("0a 0500") == "010a05000f")
    }

    @Test("Write Command ignores every permission error silently")
    func writeCommand() throws {
        let server = GATTServer(database: try Fixtures.security())
        server.connect(1)
        #expect(try server.respond("52 0500 07") == nil)
        server.setSecurity(.encrypted(keySize: 16), for: 1)
        #expect(try server.respond("0a 0500") == "0b01")
        #expect(try server.respond("52 0500 07") == nil)
        #expect(try server.respond("0a 0500") == "0b07")
    }
}

/// Security mode 1 level 4 (Core 5.4 Vol 3 Part C §10.2.1): authenticated LE Secure
/// Connections with a 128-bit key, nothing less.
@Suite("GATT permissions: Secure Connections level")
struct GATTSecureConnectionsPermissionTests {
    @Test("Only authenticated Secure Connections with a 16-octet key passes")
    func levelFour() {
        let access = AttributePermissions.Access.secureConnections
        #expect(access.error(security: .none, authorized: false) == .insufficientAuthentication)
        #expect(access.error(security: .encrypted(keySize: 16), authorized: false) == .insufficientAuthentication)
        #expect(access.error(security: .authenticated(keySize: 16), authorized: false) == .insufficientAuthentication)
        #expect(access.error(security: .secureConnections(keySize: 12), authorized: false) == .encryptionKeySizeTooShort)
        #expect(access.error(security: .secureConnections(keySize: 16), authorized: false) == nil)
        #expect(GATTSecurityLevel.secureConnections(keySize: 16).isAuthenticated)
        #expect(GATTSecurityLevel.secureConnections(keySize: 16).isSecureConnectionsLevel)
        #expect(!GATTSecurityLevel.secureConnections(keySize: 7).isSecureConnectionsLevel)
        // The lower levels accept it.
        #expect(AttributePermissions.Access.authenticated.error(security: .secureConnections(keySize: 16), authorized: false) == nil)
        #expect(AttributePermissions.Access.encrypted.error(security: .secureConnections(keySize: 7), authorized: false) == nil)
    }
}
