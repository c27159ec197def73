/// One subscriber's entitlement timeline, as the auditor keeps it (docs/world.md, "The
/// auditor"): E(t), entitled by Apple's rules (the subscription is active or in grace), and
/// G(t), the access the merchant server grants. Both are step functions of time: E changes
/// at the App Store's subscription facts, G at the server's access facts and, with no fact,
/// at the end of the access it granted (`grantedUntil`). One per account and subscription
/// group: an account subscribes in each group apart, and a server grants each group's access
/// apart (a guild membership ending takes nothing from a pass still paid).
package struct SubscriberTimeline: Sendable, Hashable {
    package var user: String
    /// The subscription group (a product's id when it names no group).
    package var group: String
    /// Closed stretches of E and G, oldest first.
    package var entitledSpans: [Range<VirtualTime>] = []
    package var grantedSpans: [Range<VirtualTime>] = []
    /// E holds since this time (nil: E does not hold now).
    var entitledSince: VirtualTime?
    /// G holds from `grantedSince` until `grantedUntil` (nil: no access granted).
    var grantedSince: VirtualTime?
    var grantedUntil: VirtualTime?
    /// The status the App Store gave last and the event that gave it.
    var status: SubscriptionStatus = .active
    var event: SubscriptionEvent = .started
    /// The rate of a day of the current period: its price over its length.
    var priceCents = 0
    var periodMs: VirtualTime = 1
    /// The subscription's newest transaction the App Store named, and its first.
    var latestTxn: String?
    var originalTxn: String?
    /// The App Store has told of a subscription of this account (any subscription fact): an
    /// account that never subscribed and is granted access got another account's.
    var subscribedAtApple = false
    /// Why G changed last (the server's words).
    var grantWhy = ""
    /// Time already counted into the money lines and the state of E and G.
    var countedTo: VirtualTime = 0
    /// E and G differ since this time (nil: they agree).
    var apartSince: VirtualTime?
    /// The anomaly open about the difference, if any.
    var anomalyId: Int?
    /// Money in cent-milliseconds per period-millisecond: granted without E; paid (E, not
    /// grace) without G; in grace without G (paid only if billing recovers).
    var grantedUnpaid = 0.0
    var paidUndelivered = 0.0
    var graceUndelivered = 0.0

    package init(user: String, group: String) {
        self.user = user
        self.group = group
    }

    /// Whether E holds now.
    var entitled: Bool { entitledSince != nil }

    /// Whether G holds at `t` (t at or after the last fact).
    func granted(at t: VirtualTime) -> Bool {
        guard grantedSince != nil, let until = grantedUntil else { return false }
        return t < until
    }

    /// E's stretches up to `now`, the open one included.
    package func entitled(until now: VirtualTime) -> [Range<VirtualTime>] {
        guard let since = entitledSince, now > since else { return entitledSpans }
        return entitledSpans + [since..<now]
    }

    /// G's stretches up to `now`, the open one included (cut at its end).
    package func granted(until now: VirtualTime) -> [Range<VirtualTime>] {
        guard let since = grantedSince, let until = grantedUntil, min(now, until) > since else { return grantedSpans }
        return grantedSpans + [since..<min(now, until)]
    }

    /// Counts the time from `countedTo` to `t` (G may end on its own inside it) into the
    /// money and notes when E and G came apart or met.
    mutating func advance(to t: VirtualTime) {
        while countedTo < t {
            let g = granted(at: countedTo)
            var next = t
            if g, let until = grantedUntil, until < t { next = until }
            let ms = Double(next - countedTo)
            let rate = Double(priceCents) / Double(max(1, periodMs))
            if g && !entitled { grantedUnpaid += ms * rate }
            if entitled && !g { status == .grace ? (graceUndelivered += ms * rate) : (paidUndelivered += ms * rate) }
            countedTo = next
            noteApart(at: next)
        }
        noteApart(at: t)
    }

    /// Notes, at `t`, whether E and G differ.
    mutating func noteApart(at t: VirtualTime) {
        let apart = entitled != granted(at: t)
        if apart, apartSince == nil { apartSince = t }
        if !apart { apartSince = nil }
    }

    /// E changes at `t`.
    mutating func setEntitled(_ on: Bool, at t: VirtualTime) {
        if on, entitledSince == nil { entitledSince = t }
        if !on, let since = entitledSince {
            if t > since { entitledSpans.append(since..<t) }
            entitledSince = nil
        }
    }

    /// G changes at `t`: access until `until` from now on (nil: none).
    mutating func setGranted(until: VirtualTime?, at t: VirtualTime) {
        if let since = grantedSince, let old = grantedUntil {
            let end = min(t, old)
            if end > since { grantedSpans.append(since..<end) }
        }
        if let until, until > t {
            grantedSince = t
            grantedUntil = until
        } else {
            grantedSince = nil
            grantedUntil = nil
        }
    }

    /// The type of the difference now: G without E (to an account that never subscribed:
    /// another account's subscription, `wrong-account`; after a refund; or past the end), or
    /// E without G (in grace, or paid).
    var differenceType: AnomalyType {
        if !entitled {
            guard subscribedAtApple else { return .wrongAccount }
            return status == .revoked ? .accessAfterRevoke : .accessAfterEnd
        }
        return status == .grace ? .graceCut : .renewalUnserved
    }
}
