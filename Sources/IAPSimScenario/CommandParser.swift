import IAPSimCore

/// Reads one command as a scenario's `do:` writes it, with the scenario's users and the
/// catalog: the core's vocabulary (`CommandSpec.all`) does the reading.
public struct CommandParser: Sendable {
    public var users: [String]
    public var catalog: Catalog

    public init(users: [String], catalog: Catalog = .standard) {
        self.users = users
        self.catalog = catalog
    }

    /// Parses `text`; the error says which word is wrong and where it starts.
    public func parse(_ text: String) throws(CommandError) -> Command {
        try Command.read(text, users: users, catalog: catalog)
    }
}
