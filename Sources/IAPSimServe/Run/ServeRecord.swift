import Foundation
import IAPSimScenario

/// `--record FILE` and `--replay FILE` (docs/serve.md, rule 15): every exchange with the backend
/// as a JSON line; the first line holds the id block, so that a replay makes the same ids.
package enum ServeRecord {
    /// The id blocks a serve chooses from (and a recording may name).
    package static let blocks = 0...99_999_999

    package static func header(block: UInt64) -> String {
        "{\"iapsim-serve-record\":1,\"block\":\(block)}"
    }

    package static func line(_ e: HTTPExchange, world: Int, race: Bool = false) -> String {
        let headers = e.headers.map { "[" + ServeJSON.quote($0.name) + "," + ServeJSON.quote($0.value) + "]" }
        return "{\"direction\":\"to-backend\",\"world\":\(world),\"virtual\":\(e.virtual),\"method\":"
            + ServeJSON.quote(e.method) + ",\"path\":" + ServeJSON.quote(e.path) + ",\"headers\":["
            + headers.joined(separator: ",") + "],\"body\":" + ServeJSON.quote(e.body) + ",\"status\":"
            + (e.status.map(String.init) ?? "null") + ",\"answer\":" + ServeJSON.quote(e.answer) + ",\"failure\":"
            + (e.failure.map(ServeJSON.quote) ?? "null") + (race ? ",\"race\":true" : "") + "}"
    }

    /// The largest recording `--replay` reads (a whole explore against a backend fits).
    package static let maxFileBytes = 256 * 1_048_576

    /// The text of a recording: only a regular file (never a FIFO or a device), at most
    /// `maxFileBytes`.
    package static func readFile(_ path: String) throws(ServeFailure) -> String {
        do {
            let bytes = try ScenarioParser.readRegularFile(path, limit: maxFileBytes)
            return String(decoding: bytes, as: UTF8.self)
        } catch {
            throw ServeFailure(exitCode: 2, "--replay \(error.description)")
        }
    }

    /// The block and the exchanges of a recording.
    package static func read(_ text: String, file: String) throws(ServeFailure) -> (
        block: UInt64, exchanges: [HTTPExchange]
    ) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        guard !lines.isEmpty, let head = ServeJSON.object(lines.removeFirst()), head["iapsim-serve-record"] != nil
        else { throw ServeFailure(exitCode: 2, "\(file):1: not an iapsim serve recording (no header line)") }
        guard let block = ServeJSON.integer(head["block"]), blocks.contains(block) else {
            throw ServeFailure(
                exitCode: 2,
                "\(file):1: the header's \"block\" must be a whole number from 0 to \(blocks.upperBound), got "
                    + "\(head["block"].map { "\($0)" } ?? "none")")
        }
        var exchanges: [HTTPExchange] = []
        for (n, line) in lines.enumerated() {
            guard let o = ServeJSON.object(line), let method = o["method"] as? String, let path = o["path"] as? String,
                let virtual = ServeJSON.integer(o["virtual"]), virtual >= 0
            else { throw ServeFailure(exitCode: 2, "\(file):\(n + 2): not an exchange of iapsim serve") }
            let status = ServeJSON.integer(o["status"])
            if let status, !(100...999).contains(status) {
                throw ServeFailure(
                    exitCode: 2, "\(file):\(n + 2): \"status\" must be an HTTP status (100 to 999) or null")
            }
            let headers = (o["headers"] as? [[String]] ?? []).compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
            exchanges.append(
                HTTPExchange(
                    virtual: Int64(virtual), method: method, path: path, headers: headers,
                    body: o["body"] as? String ?? "", status: status,
                    answer: o["answer"] as? String ?? "", failure: o["failure"] as? String))
        }
        return (UInt64(block), exchanges)
    }

    /// A body with the signature part of every JWS in it replaced (ECDSA signatures are
    /// randomized); a JWS's payload is decoded and masked too (a notification's holds one).
    package static func masked(_ body: String) -> String {
        var out = ""
        var token = ""
        var inString = false
        for ch in body {
            if ch == "\"" {
                if inString { out += maskToken(token) }
                token = ""
                inString.toggle()
                out.append(ch)
            } else if inString {
                token.append(ch)
            } else {
                out.append(ch)
            }
        }
        return out + token
    }

    static func maskToken(_ token: String) -> String {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, token.count > 40,
            parts.allSatisfy({ $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } })
        else { return token }
        var b64 = String(parts[1]).replacing("-", with: "+").replacing("_", with: "/")
        while b64.count % 4 != 0 { b64 += "=" }
        let payload = Data(base64Encoded: b64).map { String(decoding: $0, as: UTF8.self) } ?? String(parts[1])
        // The header's x5c chain is signed anew by each process (randomized ECDSA too).
        return "<header>." + masked(payload) + ".<signature>"
    }
}

/// Calls the backend, and hands each exchange to `--record` if asked.
package final class LiveTransport: ServeTransport, @unchecked Sendable {
    let http: BackendHTTP
    let record: (@Sendable (String) -> Void)?
    package var world = 0
    package private(set) var failure: ServeFailure?
    /// `--time real`: the virtual time between two exchanges passes on the wall clock too.
    let paced: Bool
    var lastVirtual: Int64?
    var lastWall = ContinuousClock.now

    package init(http: BackendHTTP, record: (@Sendable (String) -> Void)?, block: UInt64, paced: Bool = false) {
        self.http = http
        self.paced = paced
        self.record = record
        record?(ServeRecord.header(block: block))
    }

    /// `--time real`: waits on the wall clock for the virtual time since the last exchange.
    func pace(_ virtual: Int64) {
        guard paced else { return }
        if let last = lastVirtual, virtual > last {
            let due = lastWall + .milliseconds(virtual - last)
            if due > ContinuousClock.now { Thread.sleep(forTimeInterval: Self.seconds(due - ContinuousClock.now)) }
        }
        lastVirtual = virtual
        lastWall = ContinuousClock.now
    }

    package func call(_ exchange: HTTPExchange, seconds: Int64) -> HTTPExchange {
        pace(exchange.virtual)
        let e = http.call(exchange, seconds: seconds)
        record?(ServeRecord.line(e, world: world))
        return e
    }

    /// `--race`: the batch at once; the record notes each raced exchange (`"race":true`).
    package func callTogether(_ batch: [HTTPExchange], seconds: Int64) -> [HTTPExchange] {
        if let first = batch.first { pace(first.virtual) }
        let answered = http.callTogether(batch, seconds: seconds)
        for e in answered { record?(ServeRecord.line(e, world: world, race: true)) }
        return answered
    }
}

extension LiveTransport {
    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}

/// `--replay FILE`: answers from the recording, in order, with no backend. The first request
/// that differs from the recorded one (signatures aside) stops the run: exit 2, naming it.
package final class ReplayTransport: ServeTransport, @unchecked Sendable {
    let recorded: [HTTPExchange]
    let file: String
    package private(set) var next = 0
    package private(set) var failure: ServeFailure?

    package init(recorded: [HTTPExchange], file: String) {
        self.recorded = recorded
        self.file = file
    }

    /// Where two texts first differ, with a little of each around it (a body can be long).
    static func difference(_ a: String, _ b: String) -> (String, String) {
        let common = zip(a, b).prefix { $0 == $1 }.count
        func around(_ s: String) -> String {
            let start = max(0, common - 40)
            let piece = s.dropFirst(start).prefix(120)
            return (start > 0 ? "…" : "") + piece + (start + piece.count < s.count ? "…" : "")
        }
        return (around(a), around(b))
    }

    /// True when every recorded exchange was asked for.
    package var finished: Bool { next == recorded.count }

    package func call(_ exchange: HTTPExchange, seconds: Int64) -> HTTPExchange {
        guard failure == nil else { return exchange }
        guard next < recorded.count else {
            failure = ServeFailure(
                exitCode: 2,
                "replay diverged at exchange \(next + 1): the run made \(exchange.method) \(exchange.path) at virtual"
                    + " \(exchange.virtual) ms, the recording \(file) has no more exchanges")
            return exchange
        }
        let r = recorded[next]
        let fields: [(String, String, String)] = [
            ("method", r.method, exchange.method), ("path", r.path, exchange.path),
            ("virtual time", String(r.virtual), String(exchange.virtual)),
            (
                "headers", r.headers.map { "\($0.name): \($0.value)" }.joined(separator: "; "),
                exchange.headers.map { "\($0.name): \($0.value)" }.joined(separator: "; ")
            ),
            ("body", ServeRecord.masked(r.body), ServeRecord.masked(exchange.body)),
        ]
        if let (name, was, now) = fields.first(where: { $0.1 != $0.2 }) {
            let (a, b) = Self.difference(was, now)
            failure = ServeFailure(
                exitCode: 2,
                "replay diverged at exchange \(next + 1) (\(r.method) \(r.path)): its \(name) was \(a), now \(b)")
            return exchange
        }
        next += 1
        var answered = exchange
        answered.status = r.status
        answered.answer = r.answer
        answered.failure = r.failure
        return answered
    }
}
