import IAPSimCore

/// The inspector's words about prevention: the core's table (`AnomalyType.meaning`,
/// `AnomalyType.preventedBy(policy:)`), so that the UI says what `run` and `--log` say.
enum Prevention {
    static func meaning(_ type: AnomalyType, in world: StoreKitWorld) -> String { type.meaning(in: world) }

    static func line(_ type: AnomalyType, policy: Policy, status: AnomalyStatus? = nil) -> String {
        type.preventedBy(policy: policy, status: status)
    }
}
