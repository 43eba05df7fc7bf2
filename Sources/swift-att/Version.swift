/// The version `swift-att --version` prints.
let swiftATTVersion = "0.1.0"
