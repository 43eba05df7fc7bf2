print("swift-att")
