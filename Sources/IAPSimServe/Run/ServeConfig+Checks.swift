import IAPSimCore
import IAPSimScenario

/// What serve.yaml (and its flags) may hold beyond its shape: a backend URL a socket can be
/// opened for, ticks within the scenario files' durations and above a floor, headers HTTP
/// can carry (docs/serve.md, "Limits").
extension ServeConfig {
    /// A tick's `every`: at least 1 s (a finer tick turns a one-minute file into hours of
    /// calls), at most a scenario's longest duration.
    package static let tickRange: ClosedRange<VirtualTime> = 1_000...ScenarioVocabulary.maxDurationMs
    package static var tickRangeText: String {
        "a duration from 1s to \(ScenarioVocabulary.maxDurationMs / 86_400_000)d (such as 30s, 5m, 1h)"
    }

    /// Why `url` cannot be the backend's base URL, or nil: `http://` or `https://`, a host, an
    /// optional port from 1 to 65535, an optional path; no user, no space, no control character.
    package static func backendProblem(_ url: String) -> String? {
        let accepted = "must be a URL http://HOST[:PORT][/PATH] (or https://), the port from 1 to 65535"
        guard let scheme = ["http://", "https://"].first(where: { url.lowercased().hasPrefix($0) }) else {
            return "\(accepted), got \(url)"
        }
        guard url.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else {
            return "\(accepted); it holds a space or a control character"
        }
        let rest = url.dropFirst(scheme.count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.contains("@") else { return "\(accepted); a user in the URL is not accepted, got \(url)" }
        var host = Substring(authority)
        var port: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return "\(accepted), got \(url)" }
            let after = host[host.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return "\(accepted), got \(url)" }
                port = after.dropFirst()
            }
            host = host[...close]
        } else if let colon = host.lastIndex(of: ":") {
            port = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard !host.isEmpty, host != "[]" else { return "\(accepted); it has no host, got \(url)" }
        if let port {
            guard port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(port),
                (1...65_535).contains(n)
            else { return "\(accepted), got port \(port.isEmpty ? "(empty)" : String(port))" }
        }
        return nil
    }

    /// Why a header cannot be sent, or nil: its name an HTTP token, its value free of control
    /// characters (a CR or LF would end the header and start another: RFC 9110 5.5).
    package static func headerProblem(name: String, value: String) -> String? {
        let tchar = Set("!#$%&'*+-.^_`|~".unicodeScalars)
        guard !name.isEmpty,
            name.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || tchar.contains($0))
            })
        else {
            return "the header name '\(name)' is not an HTTP token (letters, digits and !#$%&'*+-.^_`|~)"
        }
        if let bad = value.unicodeScalars.first(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) {
            let named =
                ["\r": "CR", "\n": "LF", "\0": "NUL"][Character(bad)]
                ?? "U+\(String(bad.value, radix: 16, uppercase: true))"
            return "the value of header '\(name)' holds a control character (\(named)); "
                + "a header value is one line of text (HTTP refuses CR, LF and other control characters)"
        }
        return nil
    }
}
