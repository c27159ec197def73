import Testing

@testable import IAPSimCore

/// The network on its own: messages handed to it by hand; the fates and timers it decides
/// are read from the network and the outbox.
@Suite struct NetworkTests {
    static func message(
        _ id: Int, _ route: Route, _ direction: Direction = .request, sender: Sender = .app,
        payload: Payload = .orderRequest(user: "alice", product: "coins_100"),
        exchange: Int? = nil
    ) -> Message {
        Message(
            id: id, exchange: exchange ?? id, route: route, direction: direction, sender: sender,
            payload: payload, sentAt: 0)
    }

    static func outbox(at now: VirtualTime = 0) -> Outbox {
        Outbox(now: now, policy: PolicyPreset.hardened.policy, nextMessageId: 0, nextExchange: 0)
    }

    /// The delays of the timers the outbox holds, with their actions.
    static func timers(_ out: Outbox) -> [(delay: VirtualTime, action: Action)] {
        (0..<out.timerCount).map { (out.timers[$0].delay, out.pending[out.timers[$0].slot]) }
    }

    @Test func aMessageArrivesAfterItsRoutesLatency() {
        var network = Network()
        network.latencyMs[.recharge] = 500
        var out = Self.outbox()
        network.transmit(Self.message(1, .recharge), &out)
        network.transmit(Self.message(2, .order), &out)
        #expect(Self.timers(out).map(\.delay) == [500, 80])
        #expect(Self.timers(out).first?.action == .arrive(Self.message(1, .recharge)))
        #expect(network.recent.map(\.fate) == [.inFlight, .inFlight])
        let bytes = Payload.orderRequest(user: "alice", product: "coins_100").bytes
        #expect(network.totals(for: .recharge).messages == 1 && network.totals(for: .recharge).bytes == bytes)
        var later = Self.outbox(at: 500)
        network.arrived(Self.message(1, .recharge), receiverAlive: true, &later)
        #expect(network.recent[0].fate == .delivered && network.recent[0].latencyMs == 500)
        #expect(network.totals(for: .recharge).delivered == 1)
        #expect(later.facts.last?.fact == .messageArrived(id: 1, route: .recharge, direction: .request, latencyMs: 500))
    }

    @Test func aMessageToAReceiverThatIsGoneIsLost() {
        var network = Network()
        var out = Self.outbox()
        network.transmit(Self.message(1, .order, .response), &out)
        network.arrived(Self.message(1, .order, .response), receiverAlive: false, &out)
        #expect(network.recent[0].fate == .lost && network.totals(for: .order).delivered == 0)
    }

    @Test func offlineTheDevicesRequestsFailAtOnceButServerTrafficFlows() {
        var network = Network()
        network.deviceOnline = false
        var out = Self.outbox()
        network.transmit(Self.message(1, .order), &out)
        network.transmit(Self.message(2, .verify, payload: .verifyRequest(nil)), &out)
        network.transmit(Self.message(3, .order, sender: .attacker), &out)
        #expect(network.recent.map(\.fate) == [.offline, .inFlight, .inFlight])
        #expect(Self.timers(out).first?.delay == 0)
        #expect(Self.timers(out).first?.action == .appRequestFailedOffline(exchange: 1))
        #expect(network.totals(for: .order).offline == 1)
        #expect(out.facts.contains { $0.fact == .requestFailedOffline(route: .order) })
    }

    @Test func aDropFaultDropsExactlyTheNextMessageOfItsRouteAndDirection() {
        var network = Network()
        network.dropNextResponse = [.recharge]
        var out = Self.outbox()
        network.transmit(Self.message(1, .recharge), &out)
        network.transmit(Self.message(2, .recharge, .response), &out)
        network.transmit(Self.message(3, .recharge, .response), &out)
        #expect(network.recent.map(\.fate) == [.inFlight, .dropped, .inFlight])
        #expect(network.dropNextResponse.isEmpty && network.totals(for: .recharge).dropped == 1)
        #expect(Self.timers(out).count == 2, "a dropped message never arrives")
    }

    @Test func aTimeoutMarksTheExchangesRequestAndCountsOnce() {
        var network = Network()
        var out = Self.outbox()
        network.transmit(Self.message(1, .recharge, exchange: 9), &out)
        network.transmit(Self.message(2, .order, exchange: 10), &out)
        network.timedOut(exchange: 9, route: .recharge, &out)
        #expect(network.recent.map(\.fate) == [.timedOut, .inFlight])
        #expect(network.totals(for: .recharge).timedOut == 1)
        #expect(out.facts.last?.fact == .requestTimedOut(id: 1, route: .recharge))
    }

    @Test func retriesAreCountedApartFromFirstTries() {
        var network = Network()
        var out = Self.outbox()
        func recharge(_ id: Int, _ reason: SendReason) -> Message {
            Self.message(
                id, .recharge,
                payload: .rechargeRequest(
                    RechargeRequest(
                        transactionId: "t1", productId: "coins_100", uid: "alice", orderId: nil, orderToken: nil,
                        receipt: nil, reason: reason)))
        }
        network.transmit(recharge(1, .firstDelivery), &out)
        network.transmit(recharge(2, .immediateRetry(1)), &out)
        network.transmit(recharge(3, .resend(.launch)), &out)
        #expect(network.totals(for: .recharge).messages == 3 && network.totals(for: .recharge).retries == 2)
    }

    @Test func theInspectorKeepsTheMostRecentMessagesOnly() {
        var network = Network()
        network.recentLimit = 10
        var out = Self.outbox()
        for id in 1...300 { network.transmit(Self.message(id, .order), &out) }
        #expect(network.recent.map(\.id) == Array(291...300))
        #expect(network.totals(for: .order).messages == 300)
        #expect(network.history.count < 300, "trimmed as it goes")
    }
}
