import SwiftATTPDU

/// Whether an attribute may be read and written, and what the link must provide first.
///
/// Core 5.4 Vol 3 Part F §3.2.5 (access, encryption, authentication and authorization
/// permissions) and Part G §8.1 (an attribute's security requirements are checked on
/// every access). `read` or `write` being `nil` means the operation is never permitted.
public struct AttributePermissions: Sendable, Hashable {
    /// What the link must provide before one kind of access succeeds.
    public struct Requirements: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// An encrypted link.
        public static let encryption = Requirements(rawValue: 1 << 0)
        /// An encrypted link whose key came from authenticated (MITM-protected) pairing.
        public static let authentication = Requirements(rawValue: 1 << 1)
        /// The application has authorized this client (`GATTServer.setAuthorized`).
        public static let authorization = Requirements(rawValue: 1 << 2)
        /// An encrypted link whose 128-bit key came from authenticated LE Secure
        /// Connections pairing (security mode 1 level 4, Part C §10.2.1).
        public static let secureConnections = Requirements(rawValue: 1 << 3)
    }

    /// The requirements for reading or for writing.
    public struct Access: Sendable, Hashable {
        /// What the link must provide.
        public var requirements: Requirements
        /// The shortest encryption key accepted, in octets (7–16); checked only when the
        /// access requires encryption or authentication.
        public var minimumKeySize: Int

        /// An access with `requirements`, accepting keys of `minimumKeySize` octets or more.
        public init(_ requirements: Requirements = [], minimumKeySize: Int = 7) {
            self.requirements = requirements
            self.minimumKeySize = minimumKeySize
        }

        /// No requirement beyond the permission itself.
        public static let open = Access()
        /// An encrypted link.
        public static let encrypted = Access(.encryption)
        /// An encrypted link with an authenticated (MITM-protected) key.
        public static let authenticated = Access(.authentication)
        /// A client the application authorized.
        public static let authorized = Access(.authorization)
        /// Security mode 1 level 4: authenticated LE Secure Connections with a 128-bit key.
        public static let secureConnections = Access(.secureConnections, minimumKeySize: 16)

        /// The error for a client on a link with `security`, or `nil` when it may proceed.
        ///
        /// Core 5.4 Vol 3 Part F §3.4.1.1: "If more than one error code applies, then it is
        /// vendor-specific which error code is transmitted". This server follows the order
        /// in which §3.4.4.1–§3.4.6.1 list the security errors for every request:
        /// Insufficient Authorization (0x08), Insufficient Authentication (0x05),
        /// Encryption Key Size Too Short (0x0C), Insufficient Encryption (0x0F). Key size
        /// is judged only on an encrypted link (an unencrypted link has no key to be too
        /// short, so it gets Insufficient Encryption); an attribute that needs an
        /// authenticated key gets Insufficient Authentication on an unencrypted link, which
        /// is what makes a client pair with MITM protection rather than just encrypt.
        public func error(security: GATTSecurityLevel, authorized: Bool) -> ATTErrorCode? {
            if requirements.contains(.authorization) && !authorized {
                return .insufficientAuthorization
            }
            if requirements.contains(.authentication) && !security.isAuthenticated {
                return .insufficientAuthentication
            }
            // Level 4: only authenticated Secure Connections pairing gives it, so a link
            // without it needs pairing again (Insufficient Authentication), and its key
            // must be 128 bits whatever `minimumKeySize` says.
            if requirements.contains(.secureConnections) {
                guard case .secureConnections = security else { return .insufficientAuthentication }
                if security.keySize < 16 { return .encryptionKeySizeTooShort }
            }
            if !requirements.isDisjoint(with: [.encryption, .authentication, .secureConnections]) {
                if security.isEncrypted {
                    if security.keySize < minimumKeySize { return .encryptionKeySizeTooShort }
                } else {
                    return .insufficientEncryption
                }
            }
            return nil
        }
    }

    /// What reading needs; `nil`: the value cannot be read.
    public var read: Access?
    /// What writing needs; `nil`: the value cannot be written.
    public var write: Access?

    /// Permissions for reading and writing; an absent one is never permitted.
    public init(read: Access? = nil, write: Access? = nil) {
        self.read = read
        self.write = write
    }

    /// Neither readable nor writable (Service Changed's value, for one).
    public static let none = AttributePermissions()
    /// Readable by anyone, never writable.
    public static let readable = AttributePermissions(read: .open)
    /// Writable by anyone, never readable.
    public static let writable = AttributePermissions(write: .open)
    /// Readable and writable by anyone.
    public static let readWrite = AttributePermissions(read: .open, write: .open)
}
