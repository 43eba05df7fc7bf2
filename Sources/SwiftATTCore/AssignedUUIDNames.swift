/// Names of SIG-assigned 16-bit UUIDs, so tools can print `0x180D Heart Rate`.
///
/// From the Bluetooth SIG Assigned Numbers (GATT declarations, descriptors, services and
/// characteristics). A `switch` over literals: no table is built at run time and a lookup
/// allocates nothing.
extension BluetoothUUID {
    /// The assigned name of a SIG UUID, or of a well-known vendor UUID; `nil` when unknown.
    public var assignedName: String? {
        if let short = uuid16 { return Self.assignedName(short) }
        return Self.vendorName(uuid128)
    }

    /// What kind of thing the SIG assigned this 16-bit number to.
    public enum AssignedKind: Sendable {
        /// A declaration's attribute type: primary or secondary service, include,
        /// characteristic (`0x28xx`).
        case declaration
        /// A characteristic descriptor, such as the Client Characteristic Configuration
        /// (`0x29xx`).
        case descriptor
        /// A service (`0x18xx`).
        case service
        /// A characteristic: any other assigned number swift-att knows.
        case characteristic
    }

    /// The kind of a SIG-assigned UUID, or `nil` when it is not a known assigned number.
    public var assignedKind: AssignedKind? {
        guard let short = uuid16, Self.assignedName(short) != nil else { return nil }
        switch short {
        case 0x2800...0x28FF: return .declaration
        case 0x2900...0x29FF: return .descriptor
        case 0x1800...0x18FF: return .service
        default: return .characteristic
        }
    }

    static func assignedName(_ uuid: UInt16) -> String? {
        switch uuid {
        case 0x2800: return "Primary Service"
        case 0x2801: return "Secondary Service"
        case 0x2802: return "Include"
        case 0x2803: return "Characteristic"
        case 0x2900: return "Characteristic Extended Properties"
        case 0x2901: return "Characteristic User Description"
        case 0x2902: return "Client Characteristic Configuration"
        case 0x2903: return "Server Characteristic Configuration"
        case 0x2904: return "Characteristic Presentation Format"
        case 0x2905: return "Characteristic Aggregate Format"
        case 0x2906: return "Valid Range"
        case 0x2907: return "External Report Reference"
        case 0x2908: return "Report Reference"
        case 0x2909: return "Number of Digitals"
        case 0x290A: return "Value Trigger Setting"
        case 0x290B: return "Environmental Sensing Configuration"
        case 0x290C: return "Environmental Sensing Measurement"
        case 0x290D: return "Environmental Sensing Trigger Setting"
        case 0x290E: return "Time Trigger Setting"
        case 0x1800: return "Generic Access"
        case 0x1801: return "Generic Attribute"
        case 0x1802: return "Immediate Alert"
        case 0x1803: return "Link Loss"
        case 0x1804: return "Tx Power"
        case 0x1805: return "Current Time"
        case 0x1806: return "Reference Time Update"
        case 0x1807: return "Next DST Change"
        case 0x1808: return "Glucose"
        case 0x1809: return "Health Thermometer"
        case 0x180A: return "Device Information"
        case 0x180D: return "Heart Rate"
        case 0x180E: return "Phone Alert Status"
        case 0x180F: return "Battery"
        case 0x1810: return "Blood Pressure"
        case 0x1811: return "Alert Notification"
        case 0x1812: return "Human Interface Device"
        case 0x1813: return "Scan Parameters"
        case 0x1814: return "Running Speed and Cadence"
        case 0x1815: return "Automation IO"
        case 0x1816: return "Cycling Speed and Cadence"
        case 0x1818: return "Cycling Power"
        case 0x1819: return "Location and Navigation"
        case 0x181A: return "Environmental Sensing"
        case 0x181B: return "Body Composition"
        case 0x181C: return "User Data"
        case 0x181D: return "Weight Scale"
        case 0x181E: return "Bond Management"
        case 0x181F: return "Continuous Glucose Monitoring"
        case 0x1820: return "Internet Protocol Support"
        case 0x1821: return "Indoor Positioning"
        case 0x1822: return "Pulse Oximeter"
        case 0x1823: return "HTTP Proxy"
        case 0x1824: return "Transport Discovery"
        case 0x1825: return "Object Transfer"
        case 0x1826: return "Fitness Machine"
        case 0x1827: return "Mesh Provisioning"
        case 0x1828: return "Mesh Proxy"
        case 0x1829: return "Reconnection Configuration"
        case 0x183A: return "Insulin Delivery"
        case 0x183B: return "Binary Sensor"
        case 0x183C: return "Emergency Configuration"
        case 0x1843: return "Audio Input Control"
        case 0x1844: return "Volume Control"
        case 0x1845: return "Volume Offset Control"
        case 0x1846: return "Coordinated Set Identification"
        case 0x1848: return "Media Control"
        case 0x1849: return "Generic Media Control"
        case 0x184B: return "Telephone Bearer"
        case 0x184C: return "Generic Telephone Bearer"
        case 0x184D: return "Microphone Control"
        case 0x184E: return "Audio Stream Control"
        case 0x184F: return "Broadcast Audio Scan"
        case 0x1850: return "Published Audio Capabilities"
        case 0x1851: return "Basic Audio Announcement"
        case 0x1852: return "Broadcast Audio Announcement"
        case 0x1853: return "Common Audio"
        case 0x1854: return "Hearing Access"
        case 0x2A00: return "Device Name"
        case 0x2A01: return "Appearance"
        case 0x2A02: return "Peripheral Privacy Flag"
        case 0x2A03: return "Reconnection Address"
        case 0x2A04: return "Peripheral Preferred Connection Parameters"
        case 0x2A05: return "Service Changed"
        case 0x2A06: return "Alert Level"
        case 0x2A07: return "Tx Power Level"
        case 0x2A08: return "Date Time"
        case 0x2A09: return "Day of Week"
        case 0x2A0A: return "Day Date Time"
        case 0x2A0C: return "Exact Time 256"
        case 0x2A0D: return "DST Offset"
        case 0x2A0E: return "Time Zone"
        case 0x2A0F: return "Local Time Information"
        case 0x2A11: return "Time with DST"
        case 0x2A12: return "Time Accuracy"
        case 0x2A13: return "Time Source"
        case 0x2A14: return "Reference Time Information"
        case 0x2A16: return "Time Update Control Point"
        case 0x2A17: return "Time Update State"
        case 0x2A18: return "Glucose Measurement"
        case 0x2A19: return "Battery Level"
        case 0x2A1C: return "Temperature Measurement"
        case 0x2A1D: return "Temperature Type"
        case 0x2A1E: return "Intermediate Temperature"
        case 0x2A21: return "Measurement Interval"
        case 0x2A22: return "Boot Keyboard Input Report"
        case 0x2A23: return "System ID"
        case 0x2A24: return "Model Number String"
        case 0x2A25: return "Serial Number String"
        case 0x2A26: return "Firmware Revision String"
        case 0x2A27: return "Hardware Revision String"
        case 0x2A28: return "Software Revision String"
        case 0x2A29: return "Manufacturer Name String"
        case 0x2A2A: return "IEEE 11073-20601 Regulatory Certification Data List"
        case 0x2A2B: return "Current Time"
        case 0x2A31: return "Scan Refresh"
        case 0x2A32: return "Boot Keyboard Output Report"
        case 0x2A33: return "Boot Mouse Input Report"
        case 0x2A34: return "Glucose Measurement Context"
        case 0x2A35: return "Blood Pressure Measurement"
        case 0x2A36: return "Intermediate Cuff Pressure"
        case 0x2A37: return "Heart Rate Measurement"
        case 0x2A38: return "Body Sensor Location"
        case 0x2A39: return "Heart Rate Control Point"
        case 0x2A3F: return "Alert Status"
        case 0x2A40: return "Ringer Control Point"
        case 0x2A41: return "Ringer Setting"
        case 0x2A42: return "Alert Category ID Bit Mask"
        case 0x2A43: return "Alert Category ID"
        case 0x2A44: return "Alert Notification Control Point"
        case 0x2A45: return "Unread Alert Status"
        case 0x2A46: return "New Alert"
        case 0x2A47: return "Supported New Alert Category"
        case 0x2A48: return "Supported Unread Alert Category"
        case 0x2A49: return "Blood Pressure Feature"
        case 0x2A4A: return "HID Information"
        case 0x2A4B: return "Report Map"
        case 0x2A4C: return "HID Control Point"
        case 0x2A4D: return "Report"
        case 0x2A4E: return "Protocol Mode"
        case 0x2A4F: return "Scan Interval Window"
        case 0x2A50: return "PnP ID"
        case 0x2A51: return "Glucose Feature"
        case 0x2A52: return "Record Access Control Point"
        case 0x2A53: return "RSC Measurement"
        case 0x2A54: return "RSC Feature"
        case 0x2A55: return "SC Control Point"
        case 0x2A5B: return "CSC Measurement"
        case 0x2A5C: return "CSC Feature"
        case 0x2A5D: return "Sensor Location"
        case 0x2A63: return "Cycling Power Measurement"
        case 0x2A64: return "Cycling Power Vector"
        case 0x2A65: return "Cycling Power Feature"
        case 0x2A66: return "Cycling Power Control Point"
        case 0x2A67: return "Location and Speed"
        case 0x2A68: return "Navigation"
        case 0x2A6D: return "Pressure"
        case 0x2A6E: return "Temperature"
        case 0x2A6F: return "Humidity"
        case 0x2A9D: return "Weight Measurement"
        case 0x2A9E: return "Weight Scale Feature"
        case 0x2AA6: return "Central Address Resolution"
        case 0x2AC9: return "Resolvable Private Address Only"
        case 0x2B29: return "Client Supported Features"
        case 0x2B2A: return "Database Hash"
        case 0x2B3A: return "Server Supported Features"
        default: return nil
        }
    }

    static func vendorName(_ uuid: UInt128) -> String? {
        switch uuid {
        case 0x6E40_0001_B5A3_F393_E0A9_E50E_24DC_CA9E: return "Nordic UART Service"
        case 0x6E40_0002_B5A3_F393_E0A9_E50E_24DC_CA9E: return "Nordic UART RX"
        case 0x6E40_0003_B5A3_F393_E0A9_E50E_24DC_CA9E: return "Nordic UART TX"
        default: return nil
        }
    }
}
