import IAPSimCore

/// The inspector's words about causes and prevention: the core's meaning of each type, and
/// the replays' answers (`WhatIf`), so that the UI says what `run` and `--log` say.
enum Prevention {
    static func meaning(_ type: AnomalyType, in world: StoreKitWorld) -> String { type.meaning(in: world) }

    /// The replays' lines for one anomaly, or a line saying they were not run.
    /// In the sandbox the inputs are the keys pressed, not steps of a file the screen never
    /// showed: each is named as the input it was, `your input 2 (crash)`.
    static func lines(_ explanation: AnomalyExplanation?, sandbox: Bool = false, working: Bool = false) -> [String] {
        if working {
            return [
                "caused by / prevented by: working it out… (replaying the session without each input, under each key)"
            ]
        }
        guard let x = explanation else { return ["caused by / prevented by: not worked out for this anomaly yet"] }
        // Hardening that kept it from ending badly but is no fix here: why an alternative
        // that another policy names is missing from this one's list (walkthrough 6, N4).
        let setBacks = x.setBacks.map { "  not a fix here: " + $0.words }
        guard sandbox, !x.causedBy.isEmpty else { return x.lines + setBacks }
        let causes = x.causedBy.map { "your input \($0.number) (\($0.command.scenarioText))" }
        return ["caused by: " + causes.joined(separator: "; ")] + Array(x.lines.dropFirst()) + setBacks
    }
}
