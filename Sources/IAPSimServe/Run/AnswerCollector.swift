import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Collects one answer of the backend for `BackendHTTP`: its status, Content-Type and body, the
/// body bounded by `limit` (past it the exchange fails with `TooLarge`), and whether the head
/// came (a deadline passed during the body is an answer that did not end, not no answer).
final class AnswerCollector: HTTPClientResponseDelegate, @unchecked Sendable {
    struct Answer: Sendable {
        var status: Int
        var contentType: String?
        var body: ByteBuffer
    }

    struct TooLarge: Error {}

    let limit: Int
    private let lock = NSLock()
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()
    /// When the answer's last byte came, if it did.
    var ended: ContinuousClock.Instant? { lock.withLock { end } }
    private var end: ContinuousClock.Instant?
    /// Why the request could not even be made (a bad URL).
    private(set) var error: Error?

    init(limit: Int) { self.limit = limit }

    /// Whether the answer's head had arrived.
    var headCame: Bool { lock.withLock { head != nil } }

    func fail(_ error: Error) { self.error = error }

    func didReceiveHead(task: HTTPClient.Task<Answer>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        lock.withLock { self.head = head }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Answer>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let fits: Bool = lock.withLock {
            guard body.readableBytes + buffer.readableBytes <= limit else { return false }
            var part = buffer
            body.writeBuffer(&part)
            return true
        }
        return fits ? task.eventLoop.makeSucceededVoidFuture() : task.eventLoop.makeFailedFuture(TooLarge())
    }

    func didFinishRequest(task: HTTPClient.Task<Answer>) throws -> Answer {
        try lock.withLock {
            end = ContinuousClock.now
            guard let head else { throw HTTPClientError.remoteConnectionClosed }
            return Answer(
                status: Int(head.status.code), contentType: head.headers.first(name: "Content-Type"), body: body)
        }
    }
}
