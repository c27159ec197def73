/// One command word of the scenario format and what the program knows of it: how it is
/// written, how its arguments are read, whether it is a fault, how explore draws it and how
/// a shrinking finding simplifies it. The table `CommandSpec.all` is the vocabulary; the
/// parser, error messages, explore and the shrinker read it and know no command by name.
package struct CommandSpec: Sendable {
    /// The command word (`drop-next-request`).
    package let word: String
    /// How it is written, for messages and help (`drop-next-request ROUTE`).
    package let usage: String
    /// Whether the command is a fault injected into the world rather than something the
    /// user does (`network off` is one, `network on` is not).
    package let isFault: @Sendable (Command) -> Bool
    /// Reads the words after `word`.
    let read: @Sendable (CommandArguments) throws(CommandError) -> Command
    /// Its place on explore's wheel, or nil when explore never draws it.
    let explore: ExploreDraw?
    /// Simpler versions of the command, simplest first, that a shrinking finding tries.
    let simpler: @Sendable (Command) -> [Command]
    /// What the command does, for the docs' command table (Markdown; `swift run iapsim-docs`
    /// writes it into docs/scenario-format.md). Never printed by the simulator.
    package let doc: String

    init(
        _ word: String, usage: String? = nil, fault: Bool = false,
        faultIf: (@Sendable (Command) -> Bool)? = nil,
        read: @escaping @Sendable (CommandArguments) throws(CommandError) -> Command,
        explore: ExploreDraw? = nil,
        simpler: @escaping @Sendable (Command) -> [Command] = { _ in [] },
        doc: String = ""
    ) {
        self.word = word
        self.usage = usage ?? word
        self.doc = doc
        self.isFault = faultIf ?? { _ in fault }
        self.read = read
        self.explore = explore
        self.simpler = simpler
    }

    /// A command without arguments.
    init(
        _ word: String, _ command: Command, fault: Bool = false, explore: ExploreDraw? = nil, doc: String = ""
    ) {
        self.init(
            word, fault: fault,
            read: { a throws(CommandError) in
                try a.expect(0)
                return command
            }, explore: explore, doc: doc)
    }

    /// The spec of a command word, or nil.
    /// (By index: only the words are read, and only the spec found is copied; a scenario
    /// reads one for each of its steps.)
    package static func named(_ word: String) -> CommandSpec? {
        all.indices.first { all[$0].word == word }.map { all[$0] }
    }

    /// Every command word, in the order messages list them.
    package static var words: [String] { all.map(\.word) }
}

/// How explore draws a command: its slot on the wheel (slots are spun in order, each
/// `weight` wide out of the wheel's total) and the draw itself, which may pick a sibling
/// command (`drop-next-request` also draws `drop-next-response`). A new slot changes every
/// seeded schedule: explore's findings from before no longer replay.
struct ExploreDraw: Sendable {
    var slot: Int
    var weight: Int
    var draw: @Sendable (inout SplitMix64, ExploreMaterial) -> Command
}

/// What a draw may pick from.
struct ExploreMaterial: Sendable {
    var route: Route
    var users: [String]
    var catalog: Catalog
}
