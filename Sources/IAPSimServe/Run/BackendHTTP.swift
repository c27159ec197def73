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
    /// What a notification carried (`ONE_TIME_CHARGE`, `REFUND/...`), for the UI's panel; not
    /// part of the exchange's identity.
    package var what: String?
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
    /// `line` with what a notification carried after its path, as the Your backend panel shows it.
    package var panelLine: String {
        guard let what else { return line }
        return "\(method) \(path) \(what)" + String(line.dropFirst("\(method) \(path)".count))
    }

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
    /// thread, which must not be one of Swift concurrency's nor an event loop's (the runner's
    /// own thread): it waits on the client's future, so that an exchange costs one wake-up of
    /// this thread (a Task and a semaphore cost two more, each a scheduling delay on a busy
    /// machine). The whole exchange, the answer's body included, ends within `seconds`: an
    /// answer that trickles or never ends is "the answer did not end within N s".
    package func call(_ exchange: HTTPExchange, seconds: Int64) -> HTTPExchange {
        callTogether([exchange], seconds: seconds)[0]
    }

    /// The exchanges at once, each on a connection of its own (the pool opens one for each
    /// request in flight), released together; answered in the batch's order (`--race`).
    package func callTogether(_ batch: [HTTPExchange], seconds: Int64) -> [HTTPExchange] {
        let start = ContinuousClock.now
        let deadline = NIODeadline.now() + .seconds(seconds)
        let started = batch.map { send(base + $0.path, $0, deadline: deadline) }
        var answered = batch
        for (i, (task, collector)) in started.enumerated() {
            Self.finish(&answered[i], task, collector, seconds: seconds)
            answered[i].wall = (collector.ended ?? ContinuousClock.now) - start
        }
        // The backend's time ends with its last byte (on the client's event loop), not when this
        // thread wakes up to read it: the wake-up is iapsim's.
        let wall = answered.map(\.wall).max() ?? .zero
        for i in answered.indices { answered[i].backendWall = i == 0 ? wall : .zero }
        return answered
    }

    /// Sends the request; its answer comes through the task (nil: the request could not be made).
    func send(_ url: String, _ e: HTTPExchange, deadline: NIODeadline) -> (
        HTTPClient.Task<AnswerCollector.Answer>?, AnswerCollector
    ) {
        let collector = AnswerCollector(limit: Self.maxAnswerBytes)
        var headers = HTTPHeaders()
        for h in e.headers { headers.add(name: h.name, value: h.value) }
        var body: HTTPClient.Body?
        if e.method != "GET" {
            let bytes = Array(e.body.utf8)
            headers.replaceOrAdd(name: "Content-Type", value: "application/json")
            headers.replaceOrAdd(name: "Content-Length", value: String(bytes.count))
            body = .bytes(bytes)
        }
        do {
            let request = try HTTPClient.Request(
                url: url, method: HTTPMethod(rawValue: e.method), headers: headers, body: body)
            return (client.execute(request: request, delegate: collector, deadline: deadline), collector)
        } catch {
            collector.fail(error)
            return (nil, collector)
        }
    }

    /// Waits for the task and fills in the exchange's answer, or its failure in words.
    static func finish(
        _ e: inout HTTPExchange, _ task: HTTPClient.Task<AnswerCollector.Answer>?, _ collector: AnswerCollector,
        seconds: Int64
    ) {
        do {
            guard let task else { throw collector.error ?? HTTPClientError.cancelled }
            let answer = try task.futureResult.wait()
            e.status = answer.status
            e.answer = String(decoding: answer.body.readableBytesView, as: UTF8.self)
            e.contentType = answer.contentType
            if let type = answer.contentType, type.lowercased().contains("text/html") {
                e.failure = "an HTML page, not JSON"
            }
        } catch is AnswerCollector.TooLarge {
            e.status = nil
            e.failure = "an answer larger than \(maxAnswerBytes / 1_048_576) MB"
        } catch let error as HTTPClientError where error == .deadlineExceeded && collector.headCame {
            e.status = nil
            e.failure = "the answer did not end within \(seconds) s"
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
