import IAPSimCore

/// The `--log` export: one JSON object per line, in run order.
///
/// Every line has `t` (virtual milliseconds), `clock` and `kind`. Log entries add `part`
/// (the lane), the fact's fields under their own names, and `text` (the transcript's
/// words). Steps are `{"kind":"step","step":N,"line":L,"do":…,"say":…}`; a timed-out
/// `when` is `{"kind":"stepTimedOut",…}`; the end is `{"kind":"settled","complete":…}`.
/// Keys come in a fixed order, so the same run gives the same bytes.
package enum JSONLinesExport {
    /// `s` as a JSON string literal, every control character escaped (a recording or a log
    /// shown with `cat` must not drive the terminal).
    package static func jsonString(_ s: String) -> String { JSONValue.quoted(s) }

    /// `whatIf`: the replays' answers, written on each `anomalyOpened` line (`causedBy`,
    /// `preventedBy`, `savedBy`).
    package static func text(_ records: [RunRecord], whatIf: WhatIfReport? = nil) -> String {
        records.compactMap { line($0, whatIf: whatIf) }.map { $0 + "\n" }.joined()
    }

    /// The object for one record, or nil for a record that is not exported (the story).
    package static func line(_ record: RunRecord, whatIf: WhatIfReport? = nil) -> String? {
        switch record {
        case .story:
            return nil
        case .entry(let entry):
            var (kind, fields) = FactFields.of(entry.fact)
            if case .anomalyOpened(let id, _, _, _, _) = entry.fact, let x = whatIf?.explanation(of: id) {
                fields += WhatIfFields.of(x)
            }
            return JSONValue.object(
                timeFields(entry.time) + [
                    ("part", .string(entry.part.rawValue)), ("kind", .string(kind)),
                ] + fields + [("text", .string(entry.fact.text))]
            ).text
        case .stepStarted(let number, let step, let time):
            var fields =
                timeFields(time) + [
                    ("kind", .string("step")), ("step", .int(number)), ("line", .int(step.line)),
                    ("do", .string(step.command.scenarioText)),
                ]
            if let say = step.say { fields.append(("say", .string(say))) }
            return JSONValue.object(fields).text
        case .stepTimedOut(let stop):
            return JSONValue.object(
                timeFields(stop.time) + [
                    ("kind", .string("stepTimedOut")), ("step", .int(stop.number)),
                    ("line", .int(stop.step.line)), ("when", .string(stop.event.rawValue)),
                    ("withinMs", .int(stop.within)), ("text", .string(stop.description)),
                ]
            ).text
        case .settled(let time, let complete):
            return JSONValue.object(
                timeFields(time) + [
                    ("kind", .string("settled")), ("complete", .bool(complete)),
                ]
            ).text
        }
    }

    static func timeFields(_ time: VirtualTime) -> [(String, JSONValue)] {
        [("t", .int(time)), ("clock", .string(DurationText.clock(time)))]
    }
}

/// A JSON value with its keys in a fixed order.
indirect enum JSONValue {
    case string(String)
    case int(Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    /// Writes the value's JSON text to `out` (one string grown in place, not one per value).
    func write(to out: inout String) {
        switch self {
        case .string(let s): Self.quote(s, to: &out)
        case .int(let i): out += String(i)
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            out += "["
            for (k, item) in items.enumerated() {
                if k > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (k, field) in fields.enumerated() {
                if k > 0 { out += "," }
                Self.quote(field.0, to: &out)
                out += ":"
                field.1.write(to: &out)
            }
            out += "}"
        }
    }

    static func quoted(_ s: String) -> String {
        var out = ""
        quote(s, to: &out)
        return out
    }

    /// A string that is printable ASCII without `"` or `\\` (nearly every value) is appended whole.
    static func quote(_ s: String, to out: inout String) {
        var plain = s
        let simple = plain.withUTF8 { bytes in
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                if b < 0x20 || b > 0x7E || b == 0x22 || b == 0x5C { return false }
                i += 1
            }
            return true
        }
        out += "\""
        if simple {
            out += plain
        } else {
            quoteScalars(s, to: &out)
        }
        out += "\""
    }

    static func quoteScalars(_ s: String, to out: inout String) {
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                // C1 controls too: `cat log.jsonl` must not drive the terminal.
                if VisibleText.isControl(scalar) || VisibleText.isBidiControl(scalar) || scalar.value == 0x2028
                    || scalar.value == 0x2029
                {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
    }
}
