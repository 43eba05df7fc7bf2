extension GATTSecurityLevel: CustomStringConvertible {
    /// "encrypted (unauthenticated, 16-octet key)", or "not encrypted": what a user is
    /// told about a link, in the words of the command line's reports.
    public var description: String {
        switch self {
        case .none: return "not encrypted"
        case let .encrypted(n): return "encrypted (unauthenticated, \(n)-octet key)"
        case let .authenticated(n): return "encrypted (authenticated, \(n)-octet key)"
        case let .secureConnections(n): return "encrypted (authenticated LE Secure Connections, \(n)-octet key)"
        }
    }
}

extension AttributePermissions.Access: CustomStringConvertible {
    /// "authentication, a key of at least 7 octets", "no security": what an access asks
    /// of the link, for errors that say why a link fell short.
    public var description: String {
        var parts: [String] = []
        if requirements.contains(.secureConnections) {
            parts.append("authenticated LE Secure Connections")
        } else if requirements.contains(.authentication) {
            parts.append("authentication")
        } else if requirements.contains(.encryption) {
            parts.append("encryption")
        }
        if requirements.contains(.authorization) { parts.append("authorization") }
        guard !parts.isEmpty else { return "no security" }
        if !requirements.isDisjoint(with: [.encryption, .authentication, .secureConnections]) {
            parts.append("a key of at least \(requirements.contains(.secureConnections) ? 16 : minimumKeySize) octets")
        }
        return parts.joined(separator: ", ")
    }
}
