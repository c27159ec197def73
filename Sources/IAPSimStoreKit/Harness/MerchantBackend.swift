import IAPSimCore

/// A merchant server outside the world, as the store drives it: your own backend
/// (`ServedBackend`, in the `IAPSimStoreKitServe` product, which brings the HTTP packages;
/// this module speaks no HTTP).
package protocol MerchantBackend: AnyObject, Sendable {
    /// A new world of `users` against the backend: a token of that world (given back to
    /// `failure(of:)`) and the core's link to the backend.
    func link(users: [String]) throws -> (world: AnyObject, link: ExternalLink)
    /// Why the world of `world` cannot be judged (the backend unreachable, its ledger
    /// unreadable), if so.
    func failure(of world: AnyObject) -> String?
    /// Runs `body` where the stepping of a world against this backend may wait for its
    /// answers, and waits for it.
    func run<R>(_ body: @escaping () -> R) async -> R
}
