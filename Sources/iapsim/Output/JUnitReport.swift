import ArgumentParser
import Foundation
import IAPSimScenario

/// `--junit FILE` on `serve`, `check` and `explore` (docs/serve.md, "CI"): JUnit XML, one
/// `<testsuite>` with one `<testcase>` per file or explore run. The suite's name says the
/// command's mode, policy and seed (`iapsim serve --race --policy sk2-hardened --seed 1`), its
/// `timestamp` when it ran, its `<properties>` what reproduces it (seed, id block, policy,
/// catalog). A failing case carries `<failure message="FIRST VERDICT LINE">` (an anomaly's type
/// and status first) with the verdict's lines as text; an invalid file is an `<error>`. The path is checked before anything runs (`OutputCheck`: never a FIFO,
/// a device, a link or an input of the same command), and the file is written whole at the
/// end, staged beside its target and renamed into place, also when the run fails.
struct JUnitReport {
    enum Outcome {
        case passed
        case failed(lines: [String])
        case invalid(reason: String)
    }

    struct Case {
        var name: String
        var classname: String
        var seconds: Double
        var outcome: Outcome
    }

    let suite: String
    let path: String?
    private(set) var cases: [Case] = []
    /// When the suite ran: ISO 8601, UTC, to the second.
    let timestamp: String
    /// What reproduces the suite, in `<properties>`: `seed`, `id-block`, `policy`, `catalog`.
    var properties: [(name: String, value: String)]

    /// Checks `path` (`--junit`) before anything runs; `inputs` are the command's own files.
    init(
        suite: String, path: String?, inputs: [OutputCheck.Input],
        properties: [(name: String, value: String)] = [], now: Date = Date()
    ) throws {
        self.suite = suite
        self.path = path
        self.properties = properties
        timestamp = Self.timestamp(now)
        guard let path else { return }
        do {
            try OutputCheck.check([.file(flag: "--junit", path: path)], inputs: inputs)
        } catch {
            Output.error("Error: \(error.message)")
            throw ExitCode(2)
        }
    }

    mutating func add(_ name: String, classname: String? = nil, ms: Int64 = 0, _ outcome: Outcome) {
        guard path != nil else { return }
        cases.append(Case(name: name, classname: classname ?? suite, seconds: Double(ms) / 1000, outcome: outcome))
    }

    /// The document: `<testsuites>` around one `<testsuite>`.
    var xml: String {
        let failures = cases.filter { if case .failed = $0.outcome { true } else { false } }.count
        let errors = cases.filter { if case .invalid = $0.outcome { true } else { false } }.count
        let time = cases.reduce(0) { $0 + $1.seconds }
        let counts =
            "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(Self.seconds(time))\""
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites \(counts)>\n"
        out += "  <testsuite name=\"\(Self.escaped(suite))\" timestamp=\"\(timestamp)\" \(counts)>\n"
        if !properties.isEmpty {
            out += "    <properties>\n"
            for p in properties {
                out += "      <property name=\"\(Self.escaped(p.name))\" value=\"\(Self.escaped(p.value))\"/>\n"
            }
            out += "    </properties>\n"
        }
        for c in cases {
            let head =
                "    <testcase name=\"\(Self.escaped(c.name))\" classname=\"\(Self.escaped(c.classname))\" "
                + "time=\"\(Self.seconds(c.seconds))\""
            switch c.outcome {
            case .passed:
                out += head + "/>\n"
            case .failed(let lines):
                let message = lines.first ?? "failed"
                out += head + ">\n      <failure message=\"\(Self.escaped(message))\" type=\"failure\">"
                out += Self.escaped(lines.joined(separator: "\n")) + "</failure>\n    </testcase>\n"
            case .invalid(let reason):
                out += head + ">\n      <error message=\"\(Self.escaped(reason))\" type=\"invalid\">"
                out += Self.escaped(reason) + "</error>\n    </testcase>\n"
            }
        }
        return out + "  </testsuite>\n</testsuites>\n"
    }

    /// Writes the document (staged, then renamed into place); a failure is one line, exit 2.
    func write() throws {
        guard let path else { return }
        var files = OutputFiles()
        do {
            try files.stage(xml, to: path)
            try files.commit()
        } catch {
            Output.error("Error: \(error.message)")
            throw ExitCode(2)
        }
    }

    /// `2026-12-02T16:33:55`: the form JUnit's schema gives `timestamp` (no zone; UTC here).
    static func timestamp(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return f.string(from: date)
    }

    /// The `<properties>` of a suite: the seed, the id block (`core` for the core's own ids),
    /// the policy and the catalog (`built-in`, or the `.storekit` file and the grants).
    static func properties(seed: String, idBlock: String, policy: String, catalog: CatalogFlags)
        -> [(name: String, value: String)]
    {
        let file = catalog.storekit.map { $0 + (catalog.grants.map { ", grants " + $0 } ?? "") }
        return [("seed", seed), ("id-block", idBlock), ("policy", policy), ("catalog", file ?? "built-in")]
    }

    static func seconds(_ s: Double) -> String {
        let ms = Int((s * 1000).rounded())
        let rest = ms % 1000
        return "\(ms / 1000)." + String(repeating: "0", count: 3 - String(rest).count) + String(rest)
    }

    /// XML text: the five entities escaped, and characters XML 1.0 cannot hold (control
    /// characters but tab and newline, U+FFFE, U+FFFF) written visibly instead.
    static func escaped(_ text: String) -> String {
        let entities: [Unicode.Scalar: String] = [
            "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&apos;",
        ]
        var out = ""
        for scalar in text.unicodeScalars {
            if let entity = entities[scalar] {
                out += entity
            } else if scalar != "\n" && scalar != "\t"
                && (scalar.value < 0x20 || scalar.value >= 0xFFFE && scalar.value <= 0xFFFF)
            {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
