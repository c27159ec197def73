import IAPSimCore
import IAPSimSigned

/// `--race` (SERVE-CI rule 5): a delivery that has a twin goes out together with it, each on
/// its own connection, released at the same instant:
/// - the app's first report of a charge, and the App Store's notification of that charge
///   (`ONE_TIME_CHARGE`, a notification UUID of its own: the world's own notification still
///   arrives later, as Apple may deliver one twice);
/// - a notification and its duplicate (the same payload and UUID);
/// - a retried report, or a retried notification, and the attempt it repeats, still in flight.
/// The world reads the first answer; the twin's is in the exchanges, the record and the
/// ledger read after both.
extension ServeMerchant {
    /// Whether this delivery races: always under `serve --race FILE`, drawn from the run's
    /// seed under `serve --race --explore`.
    func races() -> Bool {
        guard race.on else { return false }
        guard var draw = race.draw else { return true }
        defer { race.draw = draw }
        return draw.next() & 1 == 1
    }

    /// The report, sent alone or with its twin; the report's own exchange comes back.
    func sendReport(
        _ r: RechargeRequest, jws: String, body: String, headers: [(name: String, value: String)], now: Int64
    ) -> HTTPExchange {
        let path = config.report.path
        let seconds = ServeLimits.notificationAnswerSeconds
        let report = HTTPExchange(virtual: now, method: "POST", path: path, headers: headers, body: body)
        if let twin = reportTwin(r, report: report, now: now), races() {
            return sendTogether([report, twin], seconds: seconds)[0]
        }
        return send("POST", path, headers, body, now: now, seconds: seconds)
    }

    /// The twin of a report: the charge's notification for the app's first report of a
    /// one-time purchase, the same report again for a retry; nil for anything else.
    func reportTwin(_ r: RechargeRequest, report: HTTPExchange, now: Int64) -> HTTPExchange? {
        switch r.reason {
        case .immediateRetry, .periodicRetry, .resend:
            return report
        case .firstDelivery:
            guard let signed = r.signed, signed.signer == .appStore, signed.subscription == nil,
                racedCharges.insert(r.transactionId).inserted,
                let jws = try? signer.notification(
                    .oneTimeCharge, subtype: nil, uuid: ids.notification("race:" + r.transactionId),
                    signedDate: ServePayloads.unix(Int(now)), transaction: ServePayloads.payload(signed, ids: ids),
                    renewalInfo: nil, status: nil, at: now)
            else { return nil }
            _ = signer.takeJSONLines()
            let body = ServeJSON.Value.object([("signedPayload", .string(jws))])
            return HTTPExchange(virtual: now, method: "POST", path: config.notify.path, headers: [], body: body.text)
        default:
            return nil
        }
    }

    /// A notification, alone or with its duplicate (the same payload and UUID).
    func sendNotification(_ body: String, now: Int64) -> HTTPExchange {
        let seconds = ServeLimits.notificationAnswerSeconds
        guard races() else { return send("POST", config.notify.path, [], body, now: now, seconds: seconds) }
        let e = HTTPExchange(virtual: now, method: "POST", path: config.notify.path, headers: [], body: body)
        return sendTogether([e, e], seconds: seconds)[0]
    }

    /// Sends the exchanges together; each is kept in this world's exchanges, in order.
    func sendTogether(_ batch: [HTTPExchange], seconds: Int64) -> [HTTPExchange] {
        let answered = transport.callTogether(batch, seconds: seconds)
        exchanges += answered
        return answered
    }
}

/// Whether deliveries race, and the draw that decides it under explore.
package struct ServeRace: Sendable {
    package var on: Bool
    /// nil: every delivery that has a twin races (files); else each is drawn (explore).
    package var draw: SplitMix64?

    package init(on: Bool = false, draw: SplitMix64? = nil) {
        self.on = on
        self.draw = draw
    }
}
