/// The part of the world a fact belongs to; the lanes of logs and diagrams.
package enum Part: String, Sendable, Hashable, CaseIterable {
    case user = "User"
    case app = "App"
    case storeKit = "StoreKit"
    case network = "Network"
    case server = "Merchant server"
    case appStore = "App Store"
    case attacker = "Attacker"
    case fault = "Fault"
    case auditor = "Auditor"
}

/// Who sent a request to the merchant server.
package enum Sender: String, Sendable, Hashable {
    case app, attacker
}
