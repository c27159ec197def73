import IAPSimCore

/// The inspector's words about causes and prevention: the core's meaning of each type, and
/// the replays' answers (`WhatIf`), so that the UI says what `run` and `--log` say.
enum Prevention {
    static func meaning(_ type: AnomalyType, in world: StoreKitWorld) -> String { type.meaning(in: world) }

    /// The replays' lines for one anomaly, or a line saying they were not run.
    static func lines(_ explanation: AnomalyExplanation?) -> [String] {
        explanation?.lines ?? ["caused by / prevented by: not worked out for this anomaly yet"]
    }
}
