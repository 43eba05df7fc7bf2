import SwiftATTCore

/// The external appearance of the device: a 10-bit category and a 6-bit subcategory.
///
/// Core Specification Supplement Part A §1.12; the values are the Assigned Numbers
/// Appearance Values (§2.6). The same value is the GAP Appearance characteristic (0x2A01).
/// `0x0341` is category 13 (Heart Rate Sensor), subcategory 1 (Heart Rate Belt).
public struct Appearance: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16

    @inlinable public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// The appearance value `rawValue`, assigned or not.
    @inlinable public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    /// From a category (10 bits) and subcategory (6 bits); higher bits are dropped.
    public init(category: UInt16, subcategory: UInt8) {
        rawValue = (category & 0x3FF) << 6 | UInt16(subcategory & 0x3F)
    }

    /// Bits 6–15.
    public var category: UInt16 { rawValue >> 6 }
    /// Bits 0–5.
    public var subcategory: UInt8 { UInt8(truncatingIfNeeded: rawValue & 0x3F) }

    /// Unknown (0x0000): the device does not say.
    public static let unknown = Appearance(0x0000)
    /// Phone, no subcategory (0x0040).
    public static let genericPhone = Appearance(0x0040)
    /// Computer, no subcategory (0x0080).
    public static let genericComputer = Appearance(0x0080)
    /// Laptop, a subcategory of Computer (0x0083).
    public static let laptop = Appearance(0x0083)
    /// Tablet, a subcategory of Computer (0x0087).
    public static let tablet = Appearance(0x0087)
    /// Watch, no subcategory (0x00C0).
    public static let genericWatch = Appearance(0x00C0)
    /// Sports watch, a subcategory of Watch (0x00C1).
    public static let sportsWatch = Appearance(0x00C1)
    /// Smartwatch, a subcategory of Watch (0x00C2).
    public static let smartwatch = Appearance(0x00C2)
    /// Tag, no subcategory (0x0200).
    public static let genericTag = Appearance(0x0200)
    /// Thermometer, no subcategory (0x0300).
    public static let genericThermometer = Appearance(0x0300)
    /// Heart Rate Sensor, no subcategory (0x0340).
    public static let genericHeartRateSensor = Appearance(0x0340)
    /// Heart rate belt, a subcategory of Heart Rate Sensor (0x0341).
    public static let heartRateBelt = Appearance(0x0341)
    /// Blood Pressure, no subcategory (0x0380).
    public static let genericBloodPressure = Appearance(0x0380)
    /// Human Interface Device, no subcategory (0x03C0).
    public static let genericHumanInterfaceDevice = Appearance(0x03C0)
    /// Keyboard, a subcategory of Human Interface Device (0x03C1).
    public static let keyboard = Appearance(0x03C1)
    /// Mouse, a subcategory of Human Interface Device (0x03C2).
    public static let mouse = Appearance(0x03C2)
    /// Gamepad, a subcategory of Human Interface Device (0x03C4).
    public static let gamepad = Appearance(0x03C4)
    /// Glucose Meter, no subcategory (0x0400).
    public static let genericGlucoseMeter = Appearance(0x0400)
    /// Cycling, no subcategory (0x0480).
    public static let genericCycling = Appearance(0x0480)
    /// Cycling speed and cadence sensor, a subcategory of Cycling (0x0485).
    public static let cyclingSpeedAndCadenceSensor = Appearance(0x0485)
    /// Earbud, a subcategory of Wearable Audio Device (0x0941).
    public static let earbud = Appearance(0x0941)
    /// Headphones, a subcategory of Wearable Audio Device (0x0943).
    public static let headphones = Appearance(0x0943)
    /// Pulse Oximeter, no subcategory (0x0C40).
    public static let genericPulseOximeter = Appearance(0x0C40)
    /// Weight Scale, no subcategory (0x0C80).
    public static let genericWeightScale = Appearance(0x0C80)

    /// The category's assigned name ("Heart Rate Sensor"), or `nil` when not assigned here.
    public var categoryName: String? {
        switch category {
        case 0: return "Unknown"
        case 1: return "Phone"
        case 2: return "Computer"
        case 3: return "Watch"
        case 4: return "Clock"
        case 5: return "Display"
        case 6: return "Remote Control"
        case 7: return "Eye-glasses"
        case 8: return "Tag"
        case 9: return "Keyring"
        case 10: return "Media Player"
        case 11: return "Barcode Scanner"
        case 12: return "Thermometer"
        case 13: return "Heart Rate Sensor"
        case 14: return "Blood Pressure"
        case 15: return "Human Interface Device"
        case 16: return "Glucose Meter"
        case 17: return "Running Walking Sensor"
        case 18: return "Cycling"
        case 19: return "Control Device"
        case 20: return "Network Device"
        case 21: return "Sensor"
        case 22: return "Light Fixtures"
        case 23: return "Fan"
        case 24: return "HVAC"
        case 25: return "Air Conditioning"
        case 26: return "Humidifier"
        case 27: return "Heating"
        case 28: return "Access Control"
        case 29: return "Motorized Device"
        case 30: return "Power Device"
        case 31: return "Light Source"
        case 32: return "Window Covering"
        case 33: return "Audio Sink"
        case 34: return "Audio Source"
        case 35: return "Motorized Vehicle"
        case 36: return "Domestic Appliance"
        case 37: return "Wearable Audio Device"
        case 38: return "Aircraft"
        case 39: return "AV Equipment"
        case 40: return "Display Equipment"
        case 41: return "Hearing aid"
        case 42: return "Gaming"
        case 43: return "Signage"
        case 49: return "Pulse Oximeter"
        case 50: return "Weight Scale"
        case 51: return "Personal Mobility Device"
        case 52: return "Continuous Glucose Monitor"
        case 53: return "Insulin Pump"
        case 54: return "Medication Delivery"
        case 55: return "Spirometer"
        case 81: return "Outdoor Sports Activity"
        default: return nil
        }
    }

    /// The value's name: the subcategory's ("Heart Rate Belt"), or "Generic …" for
    /// subcategory 0 of a known category. `nil` when this table does not name the value,
    /// even if the category is known (see `categoryName`).
    public var name: String? {
        if rawValue == 0 { return "Unknown" }
        if subcategory == 0 { return categoryName.map { "Generic \($0)" } }
        return Self.subcategoryName(category: category, subcategory: subcategory)
    }

    /// Subcategories of the categories a scanner meets most; the rest are left unnamed
    /// rather than guessed.
    static func subcategoryName(category: UInt16, subcategory: UInt8) -> String? {
        switch (category, subcategory) {
        case (2, 1): return "Desktop Workstation"
        case (2, 2): return "Server-class Computer"
        case (2, 3): return "Laptop"
        case (2, 4): return "Handheld PC/PDA (clamshell)"
        case (2, 5): return "Palm-size PC/PDA"
        case (2, 6): return "Wearable computer (watch size)"
        case (2, 7): return "Tablet"
        case (3, 1): return "Sports Watch"
        case (3, 2): return "Smartwatch"
        case (12, 1): return "Ear Thermometer"
        case (13, 1): return "Heart Rate Belt"
        case (14, 1): return "Arm Blood Pressure"
        case (14, 2): return "Wrist Blood Pressure"
        case (15, 1): return "Keyboard"
        case (15, 2): return "Mouse"
        case (15, 3): return "Joystick"
        case (15, 4): return "Gamepad"
        case (15, 5): return "Digitizer Tablet"
        case (15, 6): return "Card Reader"
        case (15, 7): return "Digital Pen"
        case (15, 8): return "Barcode Scanner"
        case (15, 9): return "Touchpad"
        case (15, 10): return "Presentation Remote"
        case (17, 1): return "In-Shoe Running Walking Sensor"
        case (17, 2): return "On-Shoe Running Walking Sensor"
        case (17, 3): return "On-Hip Running Walking Sensor"
        case (18, 1): return "Cycling Computer"
        case (18, 2): return "Speed Sensor"
        case (18, 3): return "Cadence Sensor"
        case (18, 4): return "Power Sensor"
        case (18, 5): return "Speed and Cadence Sensor"
        case (33, 1): return "Standalone Speaker"
        case (33, 2): return "Soundbar"
        case (33, 3): return "Bookshelf Speaker"
        case (33, 4): return "Standmounted Speaker"
        case (33, 5): return "Speakerphone"
        case (37, 1): return "Earbud"
        case (37, 2): return "Headset"
        case (37, 3): return "Headphones"
        case (37, 4): return "Neck Band"
        case (41, 1): return "In-ear hearing aid"
        case (41, 2): return "Behind-ear hearing aid"
        case (41, 3): return "Cochlear Implant"
        case (49, 1): return "Fingertip Pulse Oximeter"
        case (49, 2): return "Wrist Worn Pulse Oximeter"
        case (81, 1): return "Location Display"
        case (81, 2): return "Location and Navigation Display"
        case (81, 3): return "Location Pod"
        case (81, 4): return "Location and Navigation Pod"
        default: return nil
        }
    }

    /// `0x0341 Heart Rate Belt`, or `0x0347 Heart Rate Sensor, subcategory 7`.
    public var description: String {
        let hex = "0x" + String(repeating: "0", count: 4 - String(rawValue, radix: 16).count)
            + String(rawValue, radix: 16, uppercase: true)
        if let name { return "\(hex) \(name)" }
        if let categoryName { return "\(hex) \(categoryName), subcategory \(subcategory)" }
        return "\(hex) category \(category), subcategory \(subcategory)"
    }
}
