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
    ]

    static func picker(for model: UIModel) -> Picker {
        Picker(
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
            })
    }
}

extension UIModel {
    /// The transaction selected in the Payment queue (or Transactions), if any.
    var selectedTransactionId: String? {
        let list = inspectableTransactions
        return list.isEmpty ? nil : list[selectedIndex(.queue)].id
    }
}
