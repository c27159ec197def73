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
        let out = JSONLineWriter()
        write(records, whatIf: whatIf, to: out)
        return out.text
    }

    /// The object for one record, or nil for a record that is not exported (the story).
    package static func line(_ record: RunRecord, whatIf: WhatIfReport? = nil) -> String? {
        let out = JSONLineWriter()
        guard write(record, whatIf: whatIf, to: out) else { return nil }
        return String(decoding: out.bytes.dropLast(), as: UTF8.self)
    }

    /// Appends the lines of `records` to `out`, each record read in place (a loop in the
    /// caller's module copied each record, a memcpy and its retains, before the call).
    package static func write(_ records: [RunRecord], whatIf: WhatIfReport? = nil, to out: JSONLineWriter) {
        for record in records { write(record, whatIf: whatIf, to: out) }
    }

    /// Appends the record's line and its newline to `out` (one buffer for a whole log: no
    /// string per line), or nothing for a record that is not exported; says which.
    @discardableResult @inline(__always)
    package static func write(_ record: RunRecord, whatIf: WhatIfReport? = nil, to out: JSONLineWriter) -> Bool {
        switch record {
        case .story:
            return false
        case .entry(let entry):
            out.start(time: entry.time)
            out.add(part: entry.part)
            out.add(entry.fact)
            if case .anomalyOpened(let id, _, _, _, _) = entry.fact, let x = whatIf?.explanation(of: id) {
                for (key, value) in WhatIfFields.of(x) { out.add(key, value) }
            }
            out.addText(entry.fact)
        case .stepStarted(let number, let step, let time):
            out.start(time: time)
            out.add("kind", "step")
            out.add("step", number)
            out.add("line", step.line)
            out.add("do", step.command.scenarioText)
            if let say = step.say { out.add("say", say) }
        case .stepTimedOut(let stop):
            out.start(time: stop.time)
            out.add("kind", "stepTimedOut")
            out.add("step", stop.number)
            out.add("line", stop.step.line)
            out.add("when", stop.event.rawValue)
            out.add("withinMs", stop.within)
            out.add("text", stop.description)
        case .settled(let time, let complete):
            out.start(time: time)
            out.add("kind", "settled")
            out.add("complete", complete)
        }
        out.end()
        return true
    }
}
