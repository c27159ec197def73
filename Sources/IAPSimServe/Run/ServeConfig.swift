import IAPSimCore
import IAPSimScenario

/// `serve.yaml` (docs/serve.md): where the backend is and the words it speaks. Every key may also
/// be given as a flag (`ServeCommand`); a flag wins over the file.
package struct ServeConfig: Sendable, Equatable {
    /// One call's path, and `fields:` renaming docs/serve.md's names to the backend's.
    package struct Endpoint: Sendable, Equatable {
        package var path: String
        package var fields: [String: String] = [:]
        package init(path: String, fields: [String: String] = [:]) {
            self.path = path
            self.fields = fields
        }
        /// The backend's name for docs/serve.md's `name`.
        package func field(_ name: String) -> String { fields[name] ?? name }
    }

    package struct User: Sendable, Equatable {
        package var headers: [(name: String, value: String)] = []
        package var account: String?
        package var token: String?
        package static func == (a: User, b: User) -> Bool {
            a.account == b.account && a.token == b.token && a.headers.elementsEqual(b.headers, by: ==)
        }
    }

    package struct Tick: Sendable, Equatable {
        package var path: String
        package var everyMs: VirtualTime
    }

    package var backend: String?
    /// By name; `"*"` applies to any name not listed.
    package var users: [(name: String, user: User)] = []
    package var order: Endpoint?
    package var report = Endpoint(path: "/apple/report")
    package var notify = Endpoint(path: "/apple/notifications")
    package var ledger: Endpoint?
    package var spend: Endpoint?
    package var ticks: [Tick] = []

    package init() {}

    package static func == (a: ServeConfig, b: ServeConfig) -> Bool {
        a.backend == b.backend && a.order == b.order && a.report == b.report && a.notify == b.notify
            && a.ledger == b.ledger && a.spend == b.spend && a.ticks == b.ticks
            && a.users.elementsEqual(b.users) { $0.name == $1.name && $0.user == $1.user }
    }

    /// The settings of `name` (an unprefixed user): its own entry, else `"*"`, else none.
    package func user(_ name: String) -> User {
        users.first { $0.name == name }?.user ?? users.first { $0.name == "*" }?.user ?? User()
    }

    /// Key `key` as `other` has it (a flag over the file).
    package mutating func take(_ key: String, from other: ServeConfig) {
        switch key {
        case "backend": backend = other.backend
        case "users": users = other.users
        case "order": order = other.order
        case "report": report = other.report
        case "notify": notify = other.notify
        case "ledger": ledger = other.ledger
        case "spend": spend = other.spend
        case "ticks": ticks = other.ticks
        default: break
        }
    }

    /// The keys of `serve.yaml`.
    package static let keys = ["backend", "users", "order", "report", "notify", "ledger", "ticks", "spend"]
}

/// A mistake in `serve.yaml` or a flag: file:line:column, what is wrong, what is accepted.
package struct ServeConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

extension ServeConfig {
    /// Reads `serve.yaml` text; `file` names it in errors.
    package static func parse(_ text: String, file: String) throws(ServeConfigError) -> ServeConfig {
        let root: PlainYAML?
        do {
            root = try PlainYAML.parse(text)
        } catch {
            throw ServeConfigError("\(file):\(error.line):\(error.column): \(error.message)")
        }
        var config = ServeConfig()
        guard let root else { return config }
        func fail(_ node: PlainYAML, _ message: String) -> ServeConfigError {
            ServeConfigError("\(file):\(node.line):\(node.column): \(message)")
        }
        guard let entries = root.entries else { throw fail(root, "serve.yaml must be a map of keys") }
        for entry in entries {
            let node = entry.value
            switch entry.key {
            case "backend":
                guard let url = node.text else { throw fail(node, "'backend' must be a URL (http://HOST:PORT)") }
                if let problem = backendProblem(url) { throw fail(node, "'backend' \(problem)") }
                config.backend = url
            case "users":
                guard let users = node.entries else { throw fail(node, "'users' must be a map of names") }
                for u in users { config.users.append((u.key, try user(u.value, fail))) }
            case "order": config.order = try endpoint(node, "order", fail)
            case "report": config.report = try endpoint(node, "report", fail)
            case "notify": config.notify = try endpoint(node, "notify", fail)
            case "ledger": config.ledger = try endpoint(node, "ledger", fail)
            case "spend": config.spend = try endpoint(node, "spend", fail)
            case "ticks":
                guard case .list(let items) = node.value else {
                    throw fail(node, "'ticks' must be a list of {path, every}")
                }
                for item in items {
                    let e = try endpoint(item, "ticks", fail, extra: ["every"])
                    guard let every = item.entries?.first(where: { $0.key == "every" })?.value else {
                        throw fail(item, "a tick needs 'every': a duration such as 30s, 5m, 1h")
                    }
                    guard let ms = every.text.flatMap(Self.duration), Self.tickRange.contains(ms) else {
                        throw fail(
                            every, "a tick's 'every' must be \(tickRangeText), got \(every.text ?? "a list or a map")")
                    }
                    config.ticks.append(Tick(path: e.path, everyMs: ms))
                }
            default:
                throw fail(node, "unknown key '\(entry.key)'; serve.yaml accepts \(keys.joined(separator: ", "))")
            }
        }
        return config
    }

    private static func endpoint(
        _ node: PlainYAML, _ key: String, _ fail: (PlainYAML, String) -> ServeConfigError, extra: [String] = []
    ) throws(ServeConfigError) -> Endpoint {
        guard let entries = node.entries else { throw fail(node, "'\(key)' must be a map: {path: /...}") }
        var endpoint = Endpoint(path: "")
        for e in entries {
            switch e.key {
            case "path":
                guard let path = e.value.text, path.hasPrefix("/") else {
                    throw fail(e.value, "'\(key).path' must start with /")
                }
                endpoint.path = path
            case "fields":
                guard let fields = e.value.entries else { throw fail(e.value, "'fields' must map names to names") }
                for f in fields {
                    guard let to = f.value.text, !to.isEmpty else { throw fail(f.value, "a field's name is a word") }
                    endpoint.fields[f.key] = to
                }
            default:
                guard extra.contains(e.key) else {
                    throw fail(e.value, "unknown key '\(e.key)' in '\(key)'; accepted: path, fields")
                }
            }
        }
        guard !endpoint.path.isEmpty else { throw fail(node, "'\(key)' needs a path") }
        return endpoint
    }

    private static func user(_ node: PlainYAML, _ fail: (PlainYAML, String) -> ServeConfigError)
        throws(ServeConfigError) -> User
    {
        var user = User()
        guard let entries = node.entries else { throw fail(node, "a user is a map: {headers, account, token}") }
        for e in entries {
            switch e.key {
            case "headers":
                guard let headers = e.value.entries else { throw fail(e.value, "'headers' must map names to values") }
                for h in headers {
                    guard let v = h.value.text else { throw fail(h.value, "a header's value is text") }
                    if let problem = headerProblem(name: h.key, value: v) { throw fail(h.value, problem) }
                    user.headers.append((h.key, v))
                }
            case "account": user.account = e.value.text
            case "token":
                guard let t = e.value.text, UUIDv5.isUUID(t) else { throw fail(e.value, "'token' must be a UUID") }
                user.token = t.lowercased()
            default: throw fail(e.value, "unknown key '\(e.key)' of a user; accepted: headers, account, token")
            }
        }
        return user
    }

    /// `250ms`, `30s`, `5m`, `1h`, `2d`; nil when it is none, or too large for any clock.
    package static func duration(_ text: String) -> VirtualTime? {
        let units: [(String, VirtualTime)] = [
            ("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000),
        ]
        for (unit, ms) in units where text.hasSuffix(unit) {
            let number = text.dropLast(unit.count)
            guard !number.isEmpty, number.allSatisfy({ $0.isASCII && $0.isNumber }) else { continue }
            guard let n = VirtualTime(number) else { return nil }
            let (product, overflow) = n.multipliedReportingOverflow(by: ms)
            return overflow ? nil : product
        }
        return nil
    }
}
