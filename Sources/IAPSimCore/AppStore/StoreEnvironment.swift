/// The App Store environment a world runs in (a scenario's top-level `environment:`).
/// Apple: in production an unanswered notification is retried 1, 12, 24, 48 and 72 hours
/// after the previous attempt and Get Notification History keeps 180 days; in the sandbox
/// each notification is sent once and history keeps 30 days ("Responding to App Store
/// Server Notifications"). Payloads name the environment. Either way the simulator signs
/// with its own root, so nothing it signs passes a verifier that trusts only Apple's roots.
package enum StoreEnvironment: String, Sendable, Hashable, CaseIterable {
    case production, sandbox

    /// The payload's `environment` field.
    package var payloadName: String {
        switch self {
        case .production: return "Production"
        case .sandbox: return "Sandbox"
        }
    }

    /// Whether an unanswered notification is retried (production only).
    var retriesNotifications: Bool { self == .production }

    /// How long Get Notification History keeps a notification, in days.
    var notificationHistoryDays: Int { self == .production ? 180 : 30 }
}
