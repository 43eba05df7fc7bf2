import SwiftATTCore

/// Data whose format a company defines, tagged with the company's identifier.
///
/// Core Specification Supplement Part A §1.4: a 16-bit company identifier, little-endian,
/// then the company's data. iBeacon travels this way under Apple's 0x004C (`iBeacon`).
public struct ManufacturerSpecificData: Hashable, Sendable, CustomStringConvertible {
    /// Whose format the data follows.
    public let companyIdentifier: CompanyIdentifier
    /// The data after the identifier: a view into the advertisement.
    public let data: ArraySlice<UInt8>

    /// Data of `companyIdentifier`, as a view.
    public init(companyIdentifier: CompanyIdentifier, data: ArraySlice<UInt8>) {
        self.companyIdentifier = companyIdentifier
        self.data = data
    }

    /// Data of `companyIdentifier`.
    public init(companyIdentifier: CompanyIdentifier, data: [UInt8]) {
        self.init(companyIdentifier: companyIdentifier, data: data[...])
    }

    @usableFromInline
    init(validated s: ADStructure) {
        companyIdentifier = CompanyIdentifier(s.data.littleEndianUInt16(at: 0))
        data = s.data.bytes(from: 2)
    }

    /// The data a structure holds; `nil` when the structure is of another type.
    public init?(_ s: ADStructure) {
        guard s.type == .manufacturerSpecificData else { return nil }
        self.init(validated: s)
    }

    /// The iBeacon, when this is Apple data in the iBeacon layout.
    public var iBeacon: IBeacon? { IBeacon(self) }

    /// `0x004C Apple, Inc.: 0215…`
    public var description: String { "\(companyIdentifier): \(Hex.encode(data))" }
}
