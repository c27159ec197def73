import IAPSimCore

/// What each message of a log carries, read from the facts around it: the log's
/// `messageSent` names only a route, but the facts of the same moment say more. A message
/// sent while the app handles `rechargeSent(txn, order)` carries that transaction and order;
/// a message sent in reply to an arrival continues the arrival's thread (the server's
/// verifyReceipt, the attacker's request after its fresh order); the server's credit or
/// refusal just before an answer is that answer; and the facts that follow an arrival at
/// its moment say what it carried (the order created for an order request).
///
/// Read entry by entry, so a diagram written as the run goes can label each message as it
/// is sent. Not promised: a message whose sender logged nothing before it at the same
/// moment (the App Store's verifyReceipt status, sent after its delay) takes the thread of
/// whatever was handled last at that moment; at a moment shared by two purchases that can
/// be the other one's.
package struct MessageThreads: Sendable {
    /// What a message (or the moment being handled) carries.
    struct Thread: Sendable {
        var txn: String?
        var order: String?
        /// What the attacker sends instead of the app's proof (`replayed JWS of …`).
        var proof: String?
        /// The server's answer, when it was decided at this moment.
        var answer: String?
        /// Every word of the facts of the thread, for telling which anomaly it belongs to.
        var words: Set<String> = []
    }

    /// Whether threads are kept after their message's end (a handout reads them all after
    /// the run; a diagram written as the run goes forgets each once it is drawn).
    let keepsAll: Bool
    var threads: [Int: Thread] = [:]
    /// The thread of the moment being handled, and its time.
    var current = Thread()
    var currentTime: VirtualTime = -1
    /// The message whose arrival is being handled, while it is.
    var arrival: Int?
    /// The attacker's proof for the order it asked for, by order id.
    var proofs: [String: String] = [:]
    /// The message sent last (a request that cannot leave the device ends with it).
    var lastSent: Int?
    /// For a message sent while an arrival was handled (an answer, the server's own request to
    /// the App Store, the attacker's next step): that arrival's message. Kept only with
    /// `keepsAll`; an exchange's messages share their words (`words(of:)`).
    var repliesTo: [Int: Int] = [:]

    package init(keepsAll: Bool = false) { self.keepsAll = keepsAll }

    /// The threads of every message of `log`.
    package init(_ log: [LogEntry]) {
        self.init(keepsAll: true)
        for entry in log { read(entry) }
        shareWords()
    }

    /// Gives each message the words of every message linked to it by `repliesTo`: an order
    /// request names no order, its answer does; a verifyReceipt status names no
    /// transaction, the answer sent on it does.
    mutating func shareWords() {
        func root(_ id: Int) -> Int {
            var id = id
            while let up = repliesTo[id] { id = up }
            return id
        }
        var shared: [Int: Set<String>] = [:]
        for (id, t) in threads { shared[root(id), default: []].formUnion(t.words) }
        for id in threads.keys { threads[id]!.words = shared[root(id)] ?? [] }
    }

    package mutating func read(_ entry: LogEntry) {
        if entry.time != currentTime {
            current = Thread()
            currentTime = entry.time
            arrival = nil
        }
        switch entry.fact {
        case .messageSent(let id, _, _, _, _):
            threads[id] = current
            lastSent = id
            if keepsAll, let arrival { repliesTo[id] = arrival }
            arrival = nil
        case .messageArrived(let id, _, _, _):
            current = (keepsAll ? threads[id] : threads.removeValue(forKey: id)) ?? Thread()
            current.answer = nil
            arrival = id
        case .messageDropped(let id, _, _), .messageUnclaimed(let id, _, _, _):
            if !keepsAll { threads[id] = nil }
            arrival = nil
        case .requestFailedOffline:
            if !keepsAll, let lastSent { threads[lastSent] = nil }
            arrival = nil
        case .requestTimedOut:
            arrival = nil
        case .commandIssued:
            current = Thread(words: CausalChain.words(entry.fact.text))
            arrival = nil
        default:
            learn(entry.fact)
            if keepsAll, let arrival { threads[arrival]?.words.formUnion(current.words) }
        }
    }

    mutating func learn(_ fact: Fact) {
        switch fact {
        case .rechargeSent(let txn, let order, _, _, _):
            current = Thread(txn: txn, order: order)
        case .replayPrepared(let txn):
            current = Thread(txn: txn, proof: "replayed receipt of \(txn)")
        case .signedReplayPrepared(let txn):
            current = Thread(txn: txn, proof: "replayed JWS of \(txn)")
        case .forgeryPrepared(let s):
            current.txn = s.transactionId
            current.proof = "forged JWS \(s.transactionId)"
        case .orderCreated(let order, _, _, _, let sender):
            current.order = order
            if sender == .attacker, let proof = current.proof { proofs[order] = proof }
        case .coinsCredited(_, _, _, let txn, _, _, _):
            current.txn = txn
            current.answer = "credited \(txn)"
        case .alreadyCredited(let txn, _):
            current.txn = txn
            current.answer = "already credited \(txn)"
        case .rechargeRefused(let txn, let why, _):
            current.txn = txn
            current.answer = "refused \(txn): \(why)"
        case .accessChanged(_, _, let until, _):
            current.answer =
                (until == nil ? "access ended" : "access granted") + (current.txn.map { " to \($0)" } ?? "")
        case .serverUnavailable:
            current.answer = "HTTP 503"
        case .receiptVerified(let status, _) where status != 0:
            current.answer = "not credited: verifyReceipt \(status)"
        default:
            break
        }
        if current.proof == nil, let order = current.order, let proof = proofs[order] { current.proof = proof }
        current.words.formUnion(CausalChain.words(fact.text))
    }

    /// The words message `id` carries (empty for a message not read).
    package func words(of id: Int) -> Set<String> { threads[id]?.words ?? [] }

    /// What message `id` is, in the words of its API, with what it carries where the log
    /// says it: `POST /recharge (1000000000001, o1)`, `credited 1000000000001`.
    package func label(_ id: Int, _ route: Route, _ direction: Direction) -> String {
        let bare = MermaidExport.label(route, direction)
        guard let t = threads[id] else { return bare }
        switch (route, direction) {
        case (.recharge, .request):
            guard let proof = t.proof ?? t.txn else { return bare }
            return "\(bare) (\(proof), \(t.order ?? "no order"))"
        case (.recharge, .response):
            return t.answer ?? bare
        case (.order, .response):
            return t.order.map { "order \($0) and token" } ?? bare
        default:
            return bare
        }
    }
}

extension Fact {
    /// The message this fact is about (its sending, arrival, loss or time-out), if any.
    var messageId: Int? {
        switch self {
        case .messageSent(let id, _, _, _, _), .messageArrived(let id, _, _, _), .messageDropped(let id, _, _),
            .messageUnclaimed(let id, _, _, _), .requestTimedOut(let id, _):
            return id
        default:
            return nil
        }
    }
}
