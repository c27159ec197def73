import AsyncHTTPClient
import Dispatch
import Foundation
import NIOCore
import NIOHTTP1

/// One HTTP exchange with the backend as `--record` writes it and `--replay` reads it
/// (docs/serve.md, rule 15): direction, virtual time, method, path, headers, body, status, answer.
package struct HTTPExchange: Sendable, Equatable {
    package var virtual: Int64
    package var method: String
    package var path: String
    package var headers: [(name: String, value: String)]
    package var body: String
    /// nil: no answer (refused, closed, timed out, too large).
    package var status: Int?
    package var answer: String
    /// Why there was no usable answer, in words (`no answer within 10 s`), else nil.
    package var failure: String?
    /// The answer's Content-Type (an HTML page is classified as such).
    package var contentType: String?
    /// Wall time the exchange took, from the request's start to its answer's end (not recorded
    /// for comparison).
    package var wall: Duration = .zero
    /// What the exchange counts for in the backend's share of a serve's wall time: its `wall`,
    /// except in a race (`--race`), whose exchanges are in flight together: the race's wall
    /// counts once, on its first exchange, and 0 on the others (a sum of their walls would
    /// count the overlap twice).
    package var backendWall: Duration = .zero
    /// `wall` in whole milliseconds (what a transcript shows).
    package var wallMs: Int64 { Self.milliseconds(wall) }

    /// A duration in whole milliseconds, rounded down: sum durations first, round once (each
    /// exchange rounded down would drop half a millisecond on average).
    package static func milliseconds(_ d: Duration) -> Int64 {
        d.components.seconds * 1_000 + d.components.attoseconds / 1_000_000_000_000_000
    }

    package static func == (a: HTTPExchange, b: HTTPExchange) -> Bool {
        a.virtual == b.virtual && a.method == b.method && a.path == b.path
            && a.headers.elementsEqual(b.headers, by: ==) && a.body == b.body && a.status == b.status
            && a.answer == b.answer && a.failure == b.failure
    }

    package init(
        virtual: Int64, method: String, path: String, headers: [(name: String, value: String)], body: String,
        status: Int? = nil, answer: String = "", failure: String? = nil, contentType: String? = nil
    ) {
        self.virtual = virtual
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.status = status
        self.answer = answer
        self.failure = failure
        self.contentType = contentType
    }

    /// `POST /apple/report -> 200` or `POST /orders -> no answer: connection refused`; an answer
    /// other than 2xx shows the start of its body, escaped (`-> 422 "{\"detail\":…}"`): why your
    /// backend refused is in the transcript, `--verbose` and the UI's Your backend panel.
    package var line: String {
        let outcome = status.map { "\($0)" } ?? "no answer"
        var text = "\(method) \(path) -> \(outcome)" + (failure.map { ": \($0)" } ?? "")
        if let status, !(200..<300).contains(status) { text += " " + ServeMerchant.excerpt(answer) }
        return text
    }
}

/// Makes the calls to the backend with AsyncHTTPClient, bounded (docs/serve.md): redirects are not
/// followed, answers above `maxAnswerBytes` are cut off and classified, every call has a wall
/// deadline; a closed, refused, slow or huge answer is a `failure`, never a crash or a hang.
package final class BackendHTTP: @unchecked Sendable {
    package static let maxAnswerBytes = 1 << 20
    let client: HTTPClient
    let base: String

    package init(base: String) {
        self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(5), read: .seconds(ServeLimits.tickAnswerSeconds)))
        configuration.decompression = .disabled
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    private var isShutDown = false

    /// Ends the client (once); also done at deinit, so that no failure path leaves it open.
    package func shutdown() {
        guard !isShutDown else { return }
        isShutDown = true
        let c = client
        Blocking.run { try? await c.shutdown() }
    }

    deinit { shutdown() }

    /// The exchange, its answer filled in; `seconds` is its wall deadline. Blocks the calling
    /// thread, which must not be one of Swift concurrency's (the runner's own thread).
    /// The whole exchange, the answer's body included, ends within `seconds` (and a moment
    /// to give up): an answer that trickles or never ends is "no answer within N s".
    package func call(_ exchange: HTTPExchange, seconds: Int64) -> HTTPExchange {
        let c = client
        let url = base + exchange.path
        var late = exchange
        late.failure = "the answer did not end within \(seconds) s"
        let start = ContinuousClock.now
        var e = Blocking.run(within: .seconds(seconds) + .milliseconds(100), orElse: late) {
            await Self.perform(c, url: url, exchange, seconds: seconds)
        }
        if e.failure == late.failure {
            e.wall = ContinuousClock.now - start
            e.backendWall = e.wall
        }
        return e
    }

    /// The exchanges at once, each on a connection of its own (the pool opens one for each
    /// request in flight), released together; answered in the batch's order (`--race`).
    package func callTogether(_ batch: [HTTPExchange], seconds: Int64) -> [HTTPExchange] {
        let c = client
        let base = self.base
        let start = ContinuousClock.now
        var answered = Blocking.run {
            await withTaskGroup(of: (Int, HTTPExchange).self) { group in
                for (i, e) in batch.enumerated() {
                    group.addTask { (i, await Self.perform(c, url: base + e.path, e, seconds: seconds)) }
                }
                var out = batch
                for await (i, e) in group { out[i] = e }
                return out
            }
        }
        let wall = ContinuousClock.now - start
        for i in answered.indices { answered[i].backendWall = i == 0 ? wall : .zero }
        return answered
    }

    static func perform(_ client: HTTPClient, url: String, _ e: HTTPExchange, seconds: Int64) async -> HTTPExchange {
        var e = e
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: e.method)
        for h in e.headers { request.headers.add(name: h.name, value: h.value) }
        if e.method != "GET" {
            let bytes = Array(e.body.utf8)
            request.headers.replaceOrAdd(name: "Content-Type", value: "application/json")
            request.headers.replaceOrAdd(name: "Content-Length", value: String(bytes.count))
            request.body = .bytes(ByteBuffer(bytes: bytes))
        }
        let start = ContinuousClock.now
        await exchange(client, request, &e, seconds: seconds)
        e.wall = ContinuousClock.now - start
        e.backendWall = e.wall
        return e
    }

    static func exchange(_ client: HTTPClient, _ request: HTTPClientRequest, _ e: inout HTTPExchange, seconds: Int64)
        async
    {
        do {
            let response = try await client.execute(request, timeout: .seconds(seconds))
            let status = Int(response.status.code)
            let type = response.headers.first(name: "Content-Type")
            do {
                let body = try await response.body.collect(upTo: maxAnswerBytes)
                e.status = status
                e.answer = String(decoding: body.readableBytesView, as: UTF8.self)
                e.contentType = type
                if let type, type.lowercased().contains("text/html") { e.failure = "an HTML page, not JSON" }
            } catch is NIOTooManyBytesError {
                e.status = nil
                e.failure = "an answer larger than \(maxAnswerBytes / 1_048_576) MB"
            }
        } catch {
            e.status = nil
            e.failure = classify(error, seconds: seconds)
        }
    }

    static func classify(_ error: Error, seconds: Int64) -> String {
        let text = String(describing: error)
        if let e = error as? HTTPClientError {
            if e == .deadlineExceeded || e == .readTimeout { return "no answer within \(seconds) s" }
            if e == .connectTimeout { return "could not connect within 5 s" }
            if e == .remoteConnectionClosed { return "the backend closed the connection" }
        }
        if text.contains("onnection refused") || text.contains("connectionRefused") { return "connection refused" }
        if text.contains("reset by peer") || text.contains("errno: 104") { return "the backend reset the connection" }
        if text.lowercased().contains("closed") { return "the backend closed the connection" }
        if text.lowercased().contains("timeout") || text.lowercased().contains("deadline") {
            return "no answer within \(seconds) s"
        }
        return text
    }

    /// True for a failure where the connection went away before any answer (closed or reset):
    /// an idempotent call may be sent again on a new connection.
    package static func isConnectionLost(_ failure: String?) -> Bool {
        failure == "the backend closed the connection" || failure == "the backend reset the connection"
    }
}

/// Runs async work to its end from a thread that is not Swift concurrency's.
enum Blocking {
    final class Box<T>: @unchecked Sendable {
        var value: T?
        let done = DispatchSemaphore(value: 0)
        let lock = NSLock()
    }

    static func run<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
        let box = Box<T>()
        Task.detached {
            box.value = await work()
            box.done.signal()
        }
        box.done.wait()
        return box.value!
    }

    /// `run`, given up after `limit` of wall time: the work is cancelled and `orElse` returned.
    static func run<T: Sendable>(within limit: Duration, orElse: T, _ work: @escaping @Sendable () async -> T) -> T {
        let box = Box<T>()
        let task = Task.detached {
            let value = await work()
            box.lock.withLock { box.value = value }
            box.done.signal()
        }
        let nanoseconds = limit.components.seconds * 1_000_000_000 + limit.components.attoseconds / 1_000_000_000
        guard box.done.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success else {
            task.cancel()
            return orElse
        }
        return box.lock.withLock { box.value! }
    }
}
