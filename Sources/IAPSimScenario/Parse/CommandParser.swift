import IAPSimCore

/// Reads one command as a scenario's `do:` writes it, with the scenario's users and the
/// catalog: the core's vocabulary (`CommandSpec.all`) does the reading.
package struct CommandParser: Sendable {
    package var users: [String]
    package var catalog: Catalog

    package init(users: [String], catalog: Catalog = .standard) {
        self.users = users
        self.catalog = catalog
    }

    /// Parses `text`; the error says which word is wrong and where it starts.
    package func parse(_ text: String) throws(CommandError) -> Command {
        try Command.read(text, users: users, catalog: catalog)
    }
}
