import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import SwiftATTHost
import SwiftATTJSON
import SwiftATTSecurity

/// What `swift-att central` and `swift-att peripheral` say about a link's security: a
/// line for people and an object for `--json`, with the same facts.
enum SecurityEventText {
    static func text(_ event: SecurityEvent) -> String {
        let peer = event.peer.description
        switch event.change {
        case let .levelChanged(level):
            return "link to \(peer) \(level)"
        case let .paired(result, bond):
            return "paired with \(peer): \(describe(result))\(bond == nil ? ", not bonded" : ", bonded")"
        case let .pairingFailed(failure):
            return "pairing with \(peer) failed: \(failure.description.dropPrefix("pairing failed: "))"
        case let .bondNotSaved(error):
            return "the bond with \(peer) was not saved: \(error) (the link is encrypted; the next run will not know the device)"
        case let .bondStateNotSaved(error):
            return "what changed in the bond with \(peer) (sign counters, GATT subscriptions) was not saved: \(error) (tried again with the next change and at the stop)"
        case let .encryptionFailed(status):
            return "encrypting the link to \(peer) with the stored bond failed: \(HCIStatus(status).name) (the device may have lost its keys; pair again)"
        }
    }

    static func json(_ event: SecurityEvent) -> JSONValue {
        let peer = event.peer.description
        let handle = event.handle
        switch event.change {
        case let .levelChanged(level):
            return ["event": "security", "address": .string(peer), "handle": .integer(Int(handle)),
                    "encrypted": .bool(level.isEncrypted), "authenticated": .bool(level.isAuthenticated),
                    "secureConnections": .bool(level.isSecureConnectionsLevel), "keySize": .integer(level.keySize)]
        case let .paired(result, bond):
            return ["event": "paired", "address": .string(peer), "handle": .integer(Int(handle)),
                    "method": .string(result.method.description), "secureConnections": .bool(result.secureConnections),
                    "authenticated": .bool(result.authenticated), "keySize": .integer(result.keySize),
                    "bonded": .bool(bond != nil), "identity": bond.map { .string($0.peer.description) } ?? .null]
        case let .pairingFailed(failure):
            return ["event": "pairing-failed", "address": .string(peer), "handle": .integer(Int(handle)),
                    "reason": failure.reason.map { .integer(Int($0.rawValue)) } ?? .null,
                    "message": .string(failure.description)]
        case let .bondNotSaved(error):
            return ["event": "bond-not-saved", "address": .string(peer), "handle": .integer(Int(handle)),
                    "message": .string(error.description)]
        case let .bondStateNotSaved(error):
            return ["event": "bond-state-not-saved", "address": .string(peer),
                    "handle": handle == SecurityEvent.noConnection ? .null : .integer(Int(handle)),
                    "message": .string(error.description)]
        case let .encryptionFailed(status):
            return ["event": "encryption-failed", "address": .string(peer), "handle": .integer(Int(handle)),
                    "status": .integer(Int(status)), "statusName": .string(HCIStatus(status).name)]
        }
    }

    /// "LE Secure Connections, Numeric Comparison (authenticated), 16-octet key"
    static func describe(_ result: PairingResult) -> String {
        let kind = result.secureConnections ? "LE Secure Connections" : "LE legacy pairing"
        let protection = result.authenticated ? " (authenticated)" : " (unauthenticated)"
        return "\(kind), \(result.method.description)\(protection), \(result.keySize)-octet key"
    }

}

extension SecurityEvent.Change {
    /// The bond file could not keep something: said on standard error, not as progress.
    var isStorageFailure: Bool {
        switch self {
        case .bondNotSaved, .bondStateNotSaved: return true
        default: return false
        }
    }
}

extension String {
    func dropPrefix(_ prefix: String) -> String {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
    }
}
