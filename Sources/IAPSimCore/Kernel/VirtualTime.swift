/// Virtual time in integer milliseconds since the start of a run.
///
/// The simulation never reads a wall clock; every duration in the world is one of these.
package typealias VirtualTime = Int

/// Durations as written in scenario files and shown to people: `250ms`, `3s`, `5m`, `2h`,
/// `45d` (days are read, never written: `format` keeps its spellings).
package enum DurationText {
    package static let units: [(suffix: String, millis: Int)] = [
        ("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000),
    ]
    /// The units `parse` reads: `units` and days.
    /// The units a duration may end with, the longest suffix first (`parse` relies on it).
    static let parsedUnits: [(suffix: String, millis: Int)] = [
        ("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000),
    ]

    /// Parses `250ms`, `3s`, `5m`, `2h`, `45d` (a whole non-negative number and a unit).
    /// Returns nil for anything else; callers word the error, since they know the context.
    /// A well-formed duration too long for an `Int` reads as `Int.max`: every caller's
    /// limit then calls it too long, never malformed.
    package static func parse(_ text: String) -> VirtualTime? {
        let trimmed = text.trimmingSpaces()
        // Longest suffix first, so "ms" is not read as "m" + "s": `parsedUnits` is written
        // in that order (sorting it at each call cost most of a `wait`'s reading).
        for (suffix, millis) in parsedUnits {
            guard trimmed.hasSuffix(suffix) else { continue }
            let number = trimmed.dropLast(suffix.count)
            guard !number.isEmpty, number.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            var value = 0
            for digit in number.utf8 {
                let (times, o1) = value.multipliedReportingOverflow(by: 10)
                let (plus, o2) = times.addingReportingOverflow(Int(digit) - 0x30)
                guard !o1 && !o2 else { return .max }
                value = plus
            }
            let (ms, overflow) = value.multipliedReportingOverflow(by: millis)
            return overflow ? .max : ms
        }
        return nil
    }

    /// The shortest exact spelling: `90s` -> "1m30s" is not used; we pick the largest unit
    /// that divides evenly, so the text parses back to the same value.
    package static func format(_ millis: VirtualTime) -> String {
        for (suffix, unit) in units.reversed() where millis != 0 && millis % unit == 0 {
            return "\(millis / unit)\(suffix)"
        }
        return millis == 0 ? "0s" : "\(millis)ms"
    }

    /// A clock face for logs and headers: `0:01:02.345`.
    package static func clock(_ millis: VirtualTime) -> String {
        guard millis >= 0 else { return "-" + clock(millis == .min ? .max : -millis) }
        let ms = millis % 1000
        let totalSeconds = millis / 1000
        let s = totalSeconds % 60
        let m = (totalSeconds / 60) % 60
        let h = totalSeconds / 3600
        // Written digit by digit: every transcript line starts with one.
        let hours = decimalString(h)
        return String(unsafeUninitializedCapacity: hours.utf8.count + 10) { out in
            var n = 0
            for byte in hours.utf8 {
                out[n] = byte
                n += 1
            }
            func put(_ value: Int, digits: Int, after mark: Unicode.Scalar) {
                out[n] = UInt8(ascii: mark)
                writeDigits(value, count: digits, into: out, at: n + 1)
                n += digits + 1
            }
            put(m, digits: 2, after: ":")
            put(s, digits: 2, after: ":")
            put(ms, digits: 3, after: ".")
            return n
        }
    }

    /// A short age such as `12s`, `4m`, `2h` for panels.
    package static func age(_ millis: VirtualTime) -> String {
        if millis < 1000 { return "\(millis)ms" }
        if millis < 60_000 { return "\(millis / 1000)s" }
        if millis < 3_600_000 { return "\(millis / 60_000)m" }
        return "\(millis / 3_600_000)h"
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
