import IAPSimCore

/// The server side and money (`m`): one row per command, built from the world as it is now.
/// A new command needs one row here; the picker greys a row the world would refuse.
enum ServerSideMenu {
    struct Row: Sendable {
        var label: String
        var detail: String
        /// The command the row runs now, or why there is none (nothing to name).
        var command: @Sendable (UIModel) -> Result<Command, Refusal>
    }

    struct Refusal: Error { var why: String }

    static let rows: [Row] = [
        Row(label: "refund newest", detail: "Apple refunds the newest charge (REFUND notification)") { _ in
            .success(.refund(txn: nil))
        },
        Row(label: "refund selected", detail: "refund the transaction selected in the queue") { model in
            guard let txn = model.selectedTransactionId else {
                return .failure(Refusal(why: "no transaction to select yet"))
            }
            return .success(.refund(txn: txn))
        },
        Row(label: "spend 100", detail: "the logged-in user spends 100 coins") { model in
            guard let user = model.simulation.app.loggedIn else { return .failure(Refusal(why: "nobody is logged in")) }
            return .success(.spend(user: user, coins: 100))
        },
        Row(label: "forge", detail: "the attacker sends a JWS it signed itself") { model in
            .success(.forge(product: model.simulation.config.catalog.products.first?.id ?? "coins_100"))
        },
        Row(label: "server outage", detail: "the merchant server answers 503 / comes back") { model in
            .success(.serverOutage(on: !model.simulation.server.outage))
        },
        Row(label: "refund 40%", detail: "Apple refunds 40% of the newest charge (REFUND_PRORATED)") { _ in
            .success(.refund(txn: nil, percent: 40))
        },
        Row(label: "refund request", detail: "the customer asks Apple for a refund (CONSUMPTION_REQUEST)") { _ in
            .success(.refundRequest(txn: nil))
        },
        Row(label: "refund decline", detail: "Apple declines the refund request (REFUND_DECLINED)") { model in
            guard let asked = model.simulation.store.pendingRefundRequests.last else {
                return .failure(Refusal(why: "no refund request pending: refund request first"))
            }
            return .success(.refundDecline(txn: asked))
        },
        Row(label: "refund reverse", detail: "Apple reverses the newest refund (REFUND_REVERSED)") { _ in
            .success(.refundReverse(txn: nil))
        },
        Row(label: "forge (Xcode)", detail: "a forged JWS that claims the Xcode environment") { model in
            .success(
                .forge(product: model.simulation.config.catalog.products.first?.id ?? "coins_100", environment: "Xcode")
            )
        },
    ]

    static func picker(for model: UIModel) -> Picker {
        let now = model.pendingEnvironment ?? model.simulation.config.environment
        let next: StoreEnvironment = now == .production ? .sandbox : .production
        var environment = PickerItem(
            "environment \(next.rawValue)", "the App Store environment of the next run (starts on R)",
            .environment(next))
        if model.isPlay { environment.refused = "a file's environment is its own (environment: in the file)" }
        // The eleventh row: past the digits, it has a letter of its own.
        environment.key = "e"
        return Picker(
            title: "Server side and money",
            items: rows.map { row in
                switch row.command(model) {
                case .success(let command):
                    let label = command == .serverOutage(on: false) ? "server back" : row.label
                    return PickerItem(label, row.detail + " (\(command.scenarioText))", .run(command))
                case .failure(let refusal):
                    var item = PickerItem(row.label, row.detail, .run(.wait(0)))
                    item.refused = refusal.why
                    return item
                }
            } + [environment])
    }
}
