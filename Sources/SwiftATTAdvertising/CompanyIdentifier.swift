import SwiftATTCore

/// A Bluetooth SIG company identifier, as Manufacturer Specific Data begins.
///
/// Assigned Numbers §7 (Company Identifiers). Only identifiers a scanner commonly meets
/// are named here, each checked against the SIG list; any other value is kept and printed
/// as a number. 0xFFFF is reserved for tests before an identifier is assigned.
public struct CompanyIdentifier: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16

    @inlinable public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// The company identifier `rawValue`, named here or not.
    @inlinable public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    /// Ericsson Technology Licensing (0x0000).
    public static let ericsson = CompanyIdentifier(0x0000)
    /// Nokia Mobile Phones (0x0001).
    public static let nokia = CompanyIdentifier(0x0001)
    /// Intel Corp. (0x0002).
    public static let intel = CompanyIdentifier(0x0002)
    /// IBM Corp. (0x0003).
    public static let ibm = CompanyIdentifier(0x0003)
    /// Microsoft (0x0006).
    public static let microsoft = CompanyIdentifier(0x0006)
    /// Motorola (0x0008).
    public static let motorola = CompanyIdentifier(0x0008)
    /// Qualcomm Technologies International, Ltd. (QTIL) (0x000A).
    public static let qualcommTechnologiesInternational = CompanyIdentifier(0x000A)
    /// Texas Instruments Inc. (0x000D).
    public static let texasInstruments = CompanyIdentifier(0x000D)
    /// Broadcom Corporation (0x000F).
    public static let broadcom = CompanyIdentifier(0x000F)
    /// Qualcomm (0x001D).
    public static let qualcomm = CompanyIdentifier(0x001D)
    /// NXP Semiconductors (0x0025).
    public static let nxp = CompanyIdentifier(0x0025)
    /// ST Microelectronics (0x0030).
    public static let stMicroelectronics = CompanyIdentifier(0x0030)
    /// MediaTek, Inc. (0x0046).
    public static let mediaTek = CompanyIdentifier(0x0046)
    /// Apple, Inc. (0x004C).
    public static let apple = CompanyIdentifier(0x004C)
    /// Harman International Industries, Inc. (0x0057).
    public static let harman = CompanyIdentifier(0x0057)
    /// Nordic Semiconductor ASA (0x0059).
    public static let nordicSemiconductor = CompanyIdentifier(0x0059)
    /// Realtek Semiconductor Corporation (0x005D).
    public static let realtek = CompanyIdentifier(0x005D)
    /// Polar Electro OY (0x006B).
    public static let polar = CompanyIdentifier(0x006B)
    /// Samsung Electronics Co. Ltd. (0x0075).
    public static let samsung = CompanyIdentifier(0x0075)
    /// Garmin International, Inc. (0x0087).
    public static let garmin = CompanyIdentifier(0x0087)
    /// Bose Corporation (0x009E).
    public static let bose = CompanyIdentifier(0x009E)
    /// Suunto Oy (0x009F).
    public static let suunto = CompanyIdentifier(0x009F)
    /// LG Electronics (0x00C4).
    public static let lg = CompanyIdentifier(0x00C4)
    /// Microchip Technology Inc. (0x00CD).
    public static let microchip = CompanyIdentifier(0x00CD)
    /// Dialog Semiconductor B.V. (0x00D2).
    public static let dialogSemiconductor = CompanyIdentifier(0x00D2)
    /// Google (0x00E0).
    public static let google = CompanyIdentifier(0x00E0)
    /// Radius Networks, Inc. (0x0118).
    public static let radiusNetworks = CompanyIdentifier(0x0118)
    /// Sony Corporation (0x012D).
    public static let sony = CompanyIdentifier(0x012D)
    /// Cypress Semiconductor (0x0131).
    public static let cypress = CompanyIdentifier(0x0131)
    /// Anhui Huami Information Technology Co., Ltd. (0x0157).
    public static let huami = CompanyIdentifier(0x0157)
    /// Estimote, Inc. (0x015D).
    public static let estimote = CompanyIdentifier(0x015D)
    /// Amazon.com Services, LLC (0x0171).
    public static let amazon = CompanyIdentifier(0x0171)
    /// Fitbit, Inc. (0x018E).
    public static let fitbit = CompanyIdentifier(0x018E)
    /// Logitech International SA (0x01DA).
    public static let logitech = CompanyIdentifier(0x01DA)
    /// HUAWEI Technologies Co., Ltd. (0x027D).
    public static let huawei = CompanyIdentifier(0x027D)
    /// Espressif Incorporated (0x02E5).
    public static let espressif = CompanyIdentifier(0x02E5)
    /// Silicon Laboratories (0x02FF).
    public static let siliconLabs = CompanyIdentifier(0x02FF)
    /// Xiaomi Inc. (0x038F).
    public static let xiaomi = CompanyIdentifier(0x038F)
    /// Withings (0x03FF).
    public static let withings = CompanyIdentifier(0x03FF)
    /// Ruuvi Innovations Ltd. (0x0499).
    public static let ruuvi = CompanyIdentifier(0x0499)
    /// Reserved for internal and interoperability tests; never in shipping products.
    public static let testing = CompanyIdentifier(0xFFFF)

    /// The company's name as the SIG lists it, or `nil` when this table does not have it.
    public var name: String? {
        switch rawValue {
        case 0x0000: return "Ericsson Technology Licensing"
        case 0x0001: return "Nokia Mobile Phones"
        case 0x0002: return "Intel Corp."
        case 0x0003: return "IBM Corp."
        case 0x0006: return "Microsoft"
        case 0x0008: return "Motorola"
        case 0x000A: return "Qualcomm Technologies International, Ltd. (QTIL)"
        case 0x000D: return "Texas Instruments Inc."
        case 0x000F: return "Broadcom Corporation"
        case 0x001D: return "Qualcomm"
        case 0x0025: return "NXP Semiconductors"
        case 0x0030: return "ST Microelectronics"
        case 0x0046: return "MediaTek, Inc."
        case 0x004C: return "Apple, Inc."
        case 0x0057: return "Harman International Industries, Inc."
        case 0x0059: return "Nordic Semiconductor ASA"
        case 0x005D: return "Realtek Semiconductor Corporation"
        case 0x006B: return "Polar Electro OY"
        case 0x0075: return "Samsung Electronics Co. Ltd."
        case 0x0087: return "Garmin International, Inc."
        case 0x009E: return "Bose Corporation"
        case 0x009F: return "Suunto Oy"
        case 0x00C4: return "LG Electronics"
        case 0x00CD: return "Microchip Technology Inc."
        case 0x00D2: return "Dialog Semiconductor B.V."
        case 0x00E0: return "Google"
        case 0x0118: return "Radius Networks, Inc."
        case 0x012D: return "Sony Corporation"
        case 0x0131: return "Cypress Semiconductor"
        case 0x0157: return "Anhui Huami Information Technology Co., Ltd."
        case 0x015D: return "Estimote, Inc."
        case 0x0171: return "Amazon.com Services, LLC"
        case 0x018E: return "Fitbit, Inc."
        case 0x01DA: return "Logitech International SA"
        case 0x027D: return "HUAWEI Technologies Co., Ltd."
        case 0x02E5: return "Espressif Incorporated"
        case 0x02FF: return "Silicon Laboratories"
        case 0x038F: return "Xiaomi Inc."
        case 0x03FF: return "Withings"
        case 0x0499: return "Ruuvi Innovations Ltd."
        case 0xFFFF: return "reserved for testing"
        default: return nil
        }
    }

    /// `0x004C Apple, Inc.`
    public var description: String {
        let hex = String(rawValue, radix: 16, uppercase: true)
        let text = "0x" + String(repeating: "0", count: 4 - hex.count) + hex
        return name.map { "\(text) \($0)" } ?? text
    }
}
