extension String {
    /// `value` with exactly `decimals` digits after the point, rounded (`3.142`, `0.50`,
    /// `-1.0`), without Foundation's formatter. A value that is not finite, or too large
    /// for 64 bits once scaled, is written as Swift writes it.
    init(_ value: Double, decimals: Int) {
        var unit: Int64 = 1
        for _ in 0..<decimals { unit *= 10 }
        let scaled = (value * Double(unit)).rounded()
        guard scaled.isFinite, scaled.magnitude < 9.0e18 else {
            self = value.description
            return
        }
        let magnitude = Int64(scaled).magnitude
        let sign = scaled < 0 ? "-" : ""
        let whole = String(magnitude / unit.magnitude)
        guard decimals > 0 else {
            self = sign + whole
            return
        }
        let fraction = String(magnitude % unit.magnitude)
        self = sign + whole + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
}
