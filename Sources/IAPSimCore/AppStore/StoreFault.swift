/// The App Store's faults: its verification down or answering a status, the next payment
/// failing (finished or not by the app) or interrupted. One family of `Command`
/// (`Command.storeFault`): its words, its refusal, how it is armed and its narration, each an
/// exhaustive switch here. (How the App Store words and heals what is armed is
/// `AppStore+Faults.swift`.)
package enum StoreFault: Sendable, Hashable {
    /// `store-outage on|off`: the verification endpoint answers "temporarily unavailable"
    /// (StoreKit 2: purchases fail).
    case outage(on: Bool)
    /// `store-status CODE`: the next receipt verification answers CODE (StoreKit 1).
    case status(Int)
    /// `fail-next-payment [REASON]`: the next payment fails.
    case failNextPayment(PaymentFailure)
    /// `fail-next-payment unfinished`: the next payment fails and the app skips `finishTransaction`.
    case failNextPaymentUnfinished
    /// `interrupt-next-payment`: a `failed` transaction at once, a separate `purchased` one 30 s later.
    case interruptNextPayment

    /// The command's text as a scenario file writes it.
    var scenarioText: String {
        switch self {
        case .outage(let on): return "store-outage \(on ? "on" : "off")"
        case .status(let code): return "store-status \(code)"
        case .failNextPayment(let reason): return "fail-next-payment \(reason.rawValue)"
        case .failNextPaymentUnfinished: return "fail-next-payment unfinished"
        case .interruptNextPayment: return "interrupt-next-payment"
        }
    }

    /// Its row of the vocabulary.
    var spec: CommandSpec {
        switch self {
        case .outage: return .storeOutage
        case .status: return .storeStatus
        case .failNextPayment, .failNextPaymentUnfinished: return .failNextPayment
        case .interruptNextPayment: return .interruptNextPayment
        }
    }

    /// A line a generated story says for it (explore's findings).
    var narration: String {
        switch self {
        case .failNextPaymentUnfinished: return "The next payment fails and is never finished."
        case .interruptNextPayment: return "The next payment is interrupted."
        case .outage, .status, .failNextPayment: return scenarioText + "."
        }
    }
}

extension Command {
    package static func storeOutage(on: Bool) -> Command { .storeFault(.outage(on: on)) }
    package static func storeStatus(_ code: Int) -> Command { .storeFault(.status(code)) }
    package static func failNextPayment(_ reason: PaymentFailure) -> Command { .storeFault(.failNextPayment(reason)) }
    package static var failNextPaymentUnfinished: Command { .storeFault(.failNextPaymentUnfinished) }
    package static var interruptNextPayment: Command { .storeFault(.interruptNextPayment) }
}

extension World {
    /// Why an App Store fault cannot be armed now, or nil.
    mutating func refusing(_ fault: StoreFault) -> String? {
        switch fault {
        case .status:
            if policy.storekit == .two {
                return "StoreKit 2 has no verifyReceipt: the server checks the signed transaction itself, "
                    + "so no verification status can ever be answered"
            }
        case .outage, .failNextPayment, .failNextPaymentUnfinished, .interruptNextPayment:
            break
        }
        return nil
    }

    /// Arms the fault (or changes how the App Store answers from now on).
    mutating func perform(_ fault: StoreFault) {
        switch fault {
        case .outage(let on):
            store.outage = on
            if policy.storekit == .two {
                outbox.narrate(
                    .fault,
                    .faultArmed(
                        on
                            ? "the App Store is down: purchases fail (no verify route in StoreKit 2)"
                            : "the App Store is back"))
            } else {
                outbox.narrate(
                    .fault,
                    on
                        ? .faultArmed("App Store verification answers 21005")
                        : .faultArmed("App Store verification is back"))
            }
        case .status(let code):
            store.nextStatus = code == VerifyStatus.valid ? nil : code
            outbox.narrate(
                .fault,
                .faultArmed(
                    code == VerifyStatus.valid
                        ? "App Store verification answers normally"
                        : "the next verification answers \(code) (\(VerifyStatus.words(code)))"))
        case .failNextPayment(let reason):
            store.nextFailure = reason
            outbox.narrate(.fault, .faultArmed("the next payment will fail (\(reason.rawValue))"))
        case .failNextPaymentUnfinished:
            store.nextFailure = .cancelled
            app.skipFinishNextFailed = true
            outbox.narrate(.fault, .faultArmed("the next payment will fail and the app will not finish it"))
        case .interruptNextPayment:
            store.interruptNext = true
            outbox.narrate(.fault, .faultArmed("the next payment will be interrupted"))
        }
    }
}

/// The App Store's faults as rows of the vocabulary (docs/scenario-format.md).
extension CommandSpec {
    static let storeOutage = CommandSpec(
        "store-outage", usage: "store-outage on|off", fault: true,
        read: { a throws(CommandError) in
            try a.exactly(1)
            return .storeOutage(on: try a.onOff(0))
        }, explore: ExploreDraw(slot: 5, weight: 1) { rng, _ in .storeOutage(on: rng.below(2) == 0) },
        doc: "`on`: the App Store's verification answers 21005 (temporarily unavailable) until it is turned `off`")
    static let storeStatus = CommandSpec(
        "store-status", usage: "store-status CODE", faultIf: { $0 != .storeStatus(0) },
        read: { a throws(CommandError) in
            try a.exactly(1)
            return .storeStatus(try a.statusCode(0))
        },
        explore: ExploreDraw(slot: 16, weight: 1) { rng, _ in
            // Statuses a correct server survives: retryable ones and the sandbox's 21007.
            .storeStatus([21_002, 21_007, 21_150][rng.below(3)])
        },
        doc: "the App Store's next verification answers CODE: `0`, `21002`, `21003`, `21005`, `21007`, `21010` or "
            + "`21100`..`21199`; `0` restores normal answers")
    static let failNextPayment = CommandSpec(
        "fail-next-payment",
        usage: "fail-next-payment [" + Self.failReasons.joined(separator: "|") + "]",
        fault: true, read: { a throws(CommandError) in try a.failure() },
        explore: ExploreDraw(slot: 6, weight: 1) { rng, _ in
            rng.below(2) == 0 ? .failNextPayment(.cancelled) : .failNextPaymentUnfinished
        },
        doc: "the next payment fails, as `cancelled` (the default), `network` or `invalid`; `unfinished`: it fails "
            + "and the app's failure branch skips `finishTransaction`")
    static let interruptNextPayment = CommandSpec(
        "interrupt-next-payment", .interruptNextPayment, fault: true,
        explore: ExploreDraw(slot: 12, weight: 1) { _, _ in .interruptNextPayment },
        doc: "the next payment is interrupted: a `failed` transaction at once and, 30 s later, a separate "
            + "`purchased` one that charges")
}

extension StoreFault {
    /// The family's rows of the vocabulary, in the format's order (`CommandSpec.all` is built
    /// from the families).
    static let specs: [CommandSpec] = [.storeOutage, .storeStatus, .failNextPayment, .interruptNextPayment]
}
