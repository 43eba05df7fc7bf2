import SwiftATTCore

/// Number formatting for descriptions, without Foundation.
enum AdvertisingFormat {
    /// `7.5`, `30`, `1.25`: no trailing zeros, at most three decimals.
    static func decimal(_ v: Double) -> String {
        let thousandths = (v * 1000).rounded()
        guard thousandths.magnitude < 1e15 else { return String(v) }
        let n = Int64(thousandths.magnitude)
        var text = String(n / 1000)
        if n % 1000 != 0 {
            var digits = String(n % 1000)
            digits = String(repeating: "0", count: 3 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return thousandths < 0 ? "-" + text : text
    }
}
