/// The auditor's entitlement timelines (docs/world.md, "The auditor"): it reads the App
/// Store's subscription facts (E) and the merchant server's access facts (G), and opens an
/// anomaly where they differ for longer than its grace period; it resolves when they meet.
extension Auditor {
    /// The timeline of `user` in `productId`'s subscription group, made on first sight.
    mutating func timelineIndex(_ user: String, productId: String) -> Int {
        let group = timelineGroup(productId)
        if let k = subscriberTimelines.firstIndex(where: { $0.user == user && $0.group == group }) { return k }
        subscriberTimelines.append(SubscriberTimeline(user: user, group: group))
        return subscriberTimelines.count - 1
    }

    /// The subscription group of `productId` (itself when it names none).
    func timelineGroup(_ productId: String) -> String {
        (catalog.read(productId) { $0.subscription?.group } ?? nil) ?? productId
    }

    /// The timeline of `user` in `productId`'s subscription group, if the auditor keeps one.
    package func timeline(of user: String, productId: String) -> SubscriberTimeline? {
        let group = timelineGroup(productId)
        return subscriberTimelines.first { $0.user == user && $0.group == group }
    }

    /// The App Store changed a subscription: E follows its status.
    mutating func observeSubscription(_ note: SubscriptionNote, at t: VirtualTime, _ out: inout [LogEntry]) {
        let k = timelineIndex(note.user, productId: note.productId)
        subscriberTimelines[k].advance(to: t)
        var line = subscriberTimelines[k]
        if note.event == .recovered {
            // Billing recovered: the grace days were paid after all.
            line.paidUndelivered += line.graceUndelivered
        }
        if note.event == .recovered || note.event == .expired || note.event == .started || note.event == .resubscribed {
            line.graceUndelivered = 0
        }
        line.status = note.status
        line.event = note.event
        line.priceCents = note.priceCents
        line.periodMs = max(1, note.expiresAt - note.periodStart)
        if let txn = note.txn, note.event != .revoked { line.latestTxn = txn }
        if line.originalTxn == nil { line.originalTxn = note.txn }
        line.subscribedAtApple = true
        line.setEntitled(note.status.entitled, at: t)
        subscriberTimelines[k] = line
        if note.event == .started, let offer = note.promotionalOffer {
            openPromoIneligible(note, offer: offer, at: t, &out)
        }
        checkTimeline(k, at: t, changed: "Apple's status: \(note.productId) \(note.event.rawValue)", &out)
    }

    /// The merchant server changed the access it grants `user`.
    mutating func observeAccess(
        user: String, productId: String, until: VirtualTime?, why: String, at t: VirtualTime,
        _ out: inout [LogEntry]
    ) {
        let k = timelineIndex(user, productId: productId)
        subscriberTimelines[k].advance(to: t)
        subscriberTimelines[k].setGranted(until: until, at: t)
        subscriberTimelines[k].grantWhy = why
        if let until, until > t { watch(at: until) }
        checkTimeline(
            k, at: t,
            changed: until.map { $0 > t ? "access granted by \(why)" : "access ended by \(why)" }
                ?? "access ended by \(why)", &out)
    }

    /// Every timeline looked at again at `now` (the auditor's clock or a world event).
    mutating func evaluateTimelines(now: VirtualTime, _ out: inout [LogEntry]) {
        for k in subscriberTimelines.indices {
            let until = subscriberTimelines[k].grantedUntil
            subscriberTimelines[k].advance(to: now)
            let ran = until.map { $0 <= now } ?? false
            checkTimeline(
                k, at: now,
                changed: ran ? "the access granted ran out at its end, \(SubscriptionCalendar.iso(until ?? now))" : nil,
                &out)
        }
    }

    /// Opens an anomaly where E and G have differed longer than the grace period, resolves
    /// the open one where they meet (`changed`: what made them meet, worded only then: the
    /// timelines are looked at after every event).
    mutating func checkTimeline(
        _ k: Int, at t: VirtualTime, changed: @autoclosure () -> String?, _ out: inout [LogEntry]
    ) {
        subscriberTimelines[k].noteApart(at: t)
        // The timeline is read in place until an anomaly opens (a copy of it, its spans and
        // names, cost every look).
        guard let since = subscriberTimelines[k].apartSince else {
            guard let id = subscriberTimelines[k].anomalyId else { return }
            subscriberTimelines[k].anomalyId = nil
            let type = anomalies[id - 1].type
            change(id, type: type, status: .resolved, mechanism: changed() ?? "E and G met again", at: t, &out)
            return
        }
        guard subscriberTimelines[k].anomalyId == nil else { return }
        guard t - since > graceMs else { return watchGrace(from: since) }
        let line = subscriberTimelines[k]
        let type = line.differenceType
        // Named by the purchase that started the subscription: the replays of the what-if
        // match the same anomaly by it (the subscriber's purchase), whichever period it is in.
        let txn = line.originalTxn ?? line.latestTxn
        let id = open(
            type, .open, txn: txn, at: t, summary: AnomalyWording.timeline(type, line, since: since),
            mechanism: nil, involved: [txn, line.latestTxn].compactMap { $0 }, &out)
        anomalies[id - 1].user = line.user
        subscriberTimelines[k].anomalyId = id
    }

    /// True for an anomaly of an entitlement timeline: a subscription type, or a
    /// `wrong-account` about access granted to an account that never subscribed (its
    /// timeline holds it, not a charge).
    package func isTimelineAnomaly(_ a: Anomaly) -> Bool {
        a.type.isSubscription || a.txn == nil && subscriberTimelines.contains { $0.anomalyId == a.id }
    }

    /// Puts `time` on the auditor's clock for the timelines (G ends on its own there).
    mutating func watch(at time: VirtualTime) {
        var i = timelineWakes.count
        while i > 0, timelineWakes[i - 1] > time { i -= 1 }
        if i > 0, timelineWakes[i - 1] == time { return }
        timelineWakes.insert(time, at: i)
    }

    /// The money of one subscriber's timelines (every group), in cents (what the verdict's
    /// money line sums).
    package func timelineMoney(of user: String) -> (paidNotDelivered: Int, grantedNotPaid: Int)? {
        let lines = subscriberTimelines.filter { $0.user == user }
        guard !lines.isEmpty else { return nil }
        let paid = lines.reduce(0.0) { $0 + $1.paidUndelivered }
        let granted = lines.reduce(0.0) { $0 + $1.grantedUnpaid }
        return (Int(paid.rounded()), Int(granted.rounded()))
    }

    /// The money of the timelines, in cents: paid and not delivered, granted and not paid.
    var timelineMoney: (paidNotDelivered: Int, grantedNotPaid: Int) {
        let paid = subscriberTimelines.reduce(0.0) { $0 + $1.paidUndelivered }
        let granted = subscriberTimelines.reduce(0.0) { $0 + $1.grantedUnpaid }
        return (Int(paid.rounded()), Int(granted.rounded()))
    }
}

extension Auditor {
    /// A promotional offer went to an account new to the group (`.started`: it never
    /// subscribed there): the server signed it for a customer the offer is not for. The
    /// discount is given and cannot be taken back: permanent at once.
    mutating func openPromoIneligible(
        _ note: SubscriptionNote, offer: String, at t: VirtualTime, _ out: inout [LogEntry]
    ) {
        let lost = max(0, note.regularCents - note.priceCents)
        let id = open(
            .promoIneligible, .permanent, txn: note.txn, at: t,
            summary: "promotional offer \(offer) of \(note.productId) went to \(note.user), who never subscribed in"
                + " its group: \(formatMoney(note.priceCents)) paid for a \(formatMoney(note.regularCents)) period,"
                + " \(formatMoney(lost)) given away",
            mechanism: "the merchant server signed the offer for an account with no subscription in the group, and"
                + " the App Store applies whatever the server signs",
            involved: [note.user] + (note.txn.map { [$0] } ?? []),
            &out)
        anomalies[id - 1].user = note.user
    }
}

extension AnomalyWording {
    /// The summary of a difference of E and G.
    static func timeline(_ type: AnomalyType, _ line: SubscriberTimeline, since: VirtualTime) -> String {
        let from = SubscriptionCalendar.iso(since)
        let sub = line.originalTxn.map { "subscription \($0) of \(line.user)" } ?? "the subscription of \(line.user)"
        switch type {
        case .accessAfterRevoke where line.event == .familyRevoked:
            return "\(sub): Family Sharing ended (REVOKE), the server still grants the family member access since"
                + " \(from)"
        case .accessAfterRevoke:
            return "\(sub): Apple revoked the period (refund), the server still grants access since \(from)"
        case .wrongAccount:
            return "\(line.user) never subscribed at the App Store, yet the server grants \(line.user) access since"
                + " \(from): another account's subscription (its purchase or renewal, or news of it applied to"
                + " \(line.user))"
        case .accessAfterEnd:
            return "\(sub): Apple's status is \(line.status.word), the server still grants access since \(from)"
        case .graceCut:
            return "\(sub): in its billing grace period, Apple entitles it, the server grants no access since \(from)"
        case .renewalUnserved, .lostOrder, .missedOrder, .replayFraud, .duplicateReceipt, .doubleCredit,
            .refundUnclawed, .refundOverclawed, .ackedNotCredited, .ledgerMismatch, .promoIneligible:
            return
                "\(sub): Apple charged and entitles it (\(line.event.rawValue)), the server grants no access since \(from)"
        }
    }
}
