import IAPSimCore

/// A message from the App Store to show the customer (StoreKit's `Message`): in the
/// simulated store, the consent sheet of a price increase that needs the customer's consent
/// (reason `priceIncreaseConsent`), delivered at the app's launch. Not promised: StoreKit's
/// `display(in:)` takes a window scene, which the harness has none of; the simulated world
/// shows the sheet when it delivers the message (its log says so), and the customer's answer
/// is a step (`consent`). The app deferring the message (StoreKit 2: not calling
/// `display(in:)`; StoreKit 1: `paymentQueueShouldShowPriceConsent` false) and showing it later
/// are the steps `messages defer` and `messages show` (`SimulatedStore.perform`); a deferred
/// message is still delivered here.
public struct Message: Sendable, Hashable {
    /// Why the App Store sends the message (StoreKit's `Message.Reason`).
    public struct Reason: RawRepresentable, Sendable, Hashable {
        /// The reason's name.
        public let rawValue: String
        /// The reason named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A price increase of an auto-renewable subscription that needs the customer's consent.
        public static let priceIncreaseConsent = Reason(rawValue: "priceIncreaseConsent")
        /// A billing issue with the customer's payment method.
        public static let billingIssue = Reason(rawValue: "billingIssue")
        /// Any other message.
        public static let generic = Reason(rawValue: "generic")
    }

    /// Why the message was sent.
    public let reason: Reason
    let productID: String

    /// The messages StoreKit delivered to the app and nobody answered yet. StoreKit's sequence
    /// waits for more; this one ends after those delivered so far (the harness's messages
    /// come only at launch).
    public static var messages: Messages { Messages() }

    /// An asynchronous sequence of messages (StoreKit's `Message.Messages`).
    public struct Messages: AsyncSequence, Sendable {
        /// A message.
        public typealias Element = Message

        /// An iterator over the messages of the calling task's store.
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }

        /// Iterates the messages delivered so far.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var items: [Message]?

            /// The next message, or nil at the end.
            public mutating func next() async -> Message? {
                if items == nil {
                    guard let store = SimulatedStore.current, store.noteCall() else { return nil }
                    items = store.locked { store.sim.store.deliveredMessages.map(Message.init) }
                }
                return items!.isEmpty ? nil : items!.removeFirst()
            }
        }
    }

    init(_ m: StoreKitMessage) {
        reason = Reason(rawValue: m.reason)
        productID = m.productId
    }
}
