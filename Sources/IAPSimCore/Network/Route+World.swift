extension Route {
    /// Whether runs of `world` use this route. `verify` (the merchant server asks the App
    /// Store about a receipt) is StoreKit 1's alone: a StoreKit 2 server checks the JWS
    /// itself. Every other route exists in both worlds unless it says otherwise here.
    package func exists(in world: StoreKitWorld) -> Bool {
        self != .verify || world == .one
    }

    /// The routes of `world`, in `allCases` order: the one list the UI's Network panel and
    /// its drop picker show, so that a new route appears there without a change to the UI.
    package static func routes(in world: StoreKitWorld) -> [Route] {
        allCases.filter { $0.exists(in: world) }
    }
}
