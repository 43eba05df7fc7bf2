import SwiftATTGATT

extension L2CAPChannelParameters {
    /// What an Enhanced ATT bearer's channel offers by default: ATT PDUs of up to 517
    /// octets (a 512-octet value in one notification or response, as on the unenhanced
    /// bearer), K-frames that fit one 251-octet ACL buffer, a window of 16 (the host
    /// reads its own channels at once, so credits come straight back), and an encrypted
    /// link, which Enhanced ATT asks of its bearers (Core 5.4 Vol 3 Part G §5.3.2; a
    /// requester that can pair does so when refused).
    public static let enhancedATT = L2CAPChannelParameters(mtu: 517, mps: 247, credits: 16, security: .encrypted)
}
