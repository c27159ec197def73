import IAPSimCore

/// The replays' answers as JSON fields of an `anomalyOpened` line:
/// `causedBy: [{step, line, command}]`, `preventedBy: [[{key, value}]]` (`[]` when nothing
/// within one or two changes prevents it, or a setting in effect resolved it), `savedBy:
/// [{key, value}]` and `account`, the one line every surface shows (`AnomalyAccount`).
enum WhatIfFields {
    static func of(_ x: AnomalyExplanation) -> [(String, JSONValue)] {
        [
            ("causedBy", .array(x.causedBy.map(step))),
            ("preventedBy", .array(x.preventedBy.map { .array($0.map(change)) })),
            ("savedBy", .array(x.savedBy.map(change))),
            ("account", .string(x.account.line)),
        ]
    }

    static func step(_ s: ReplayStep) -> JSONValue {
        .object([("step", .int(s.number)), ("line", .int(s.line)), ("command", .string(s.command.scenarioText))])
    }

    static func change(_ c: PolicyChange) -> JSONValue {
        .object([("key", .string(c.key.rawValue)), ("value", .string(c.value))])
    }
}
