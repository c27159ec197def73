import IAPSimCore

/// One scenario file of format 1, read and checked: a story, a policy, a seed, the merchant
/// accounts, the app's state at time 0, the steps to play and what must hold at the end.
///
/// A `Scenario` is only ever built from a file that passed every check of
/// `ScenarioParser`, or by code that keeps the same rules (`ScenarioWriter` writes it back).
package struct Scenario: Sendable, Equatable {
    /// The only format this parser knows.
    package static let supportedFormat = 1

    package var title: String
    /// The narration shown before the first step, exactly as written (a `|` block keeps
    /// its final newline).
    package var story: String?
    /// The policy in force at time 0, with every override applied.
    package var policy: Policy
    /// The preset the policy started from (`hardened` unless the file names another).
    package var preset: PolicyPreset
    package var seed: UInt64
    /// Merchant accounts; the first is logged in when the app first launches. Never empty.
    package var users: [String]
    package var app: AppState
    /// The App Store environment (`environment:`), production by default.
    package var environment: StoreEnvironment = .production
    /// Who plays the merchant server (`merchant:`): `external` files run only under `iapsim serve`.
    package var merchant: MerchantMode = .simulated
    /// The app's billing grace period for subscriptions (`grace-period:`), nil for `off`.
    package var gracePeriodMs: VirtualTime?
    /// The products the App Store sells (`storekit:`, `grants:`, or the command line's
    /// `--storekit` and `--grants`): the built-in catalog unless one is named.
    package var catalog: LoadedCatalog = .builtIn
    /// `storekit:` as written (relative to the scenario file), for the writer.
    package var storekitPath: String?
    package var steps: [Step]
    package var expect: Expectations

    package init(
        title: String, story: String? = nil, policy: Policy? = nil,
        preset: PolicyPreset = .hardened, seed: UInt64 = 1, users: [String] = ["alice"],
        app: AppState = .running, steps: [Step] = [], expect: Expectations = Expectations()
    ) {
        self.title = title
        self.story = story
        self.policy = policy ?? preset.policy
        self.preset = preset
        self.seed = seed
        self.users = users
        self.app = app
        self.steps = steps
        self.expect = expect
    }
}

/// Whether the app process is running at time 0.
package enum AppState: String, Sendable, Hashable, CaseIterable {
    case running
    case notRunning = "not-running"
}

/// One step: when it runs, what it does, and what the narrator says.
///
/// Two steps are equal when they run at the same moment, do the same and say the same:
/// where a step was written (`line`, `column`) is not part of what it is, so a scenario
/// written out and read back equals the original.
package struct Step: Sendable, Hashable {
    package var trigger: Trigger
    package var command: Command
    package var say: String?
    /// 1-based position of the step in its file; 0 for a step made in code.
    package var line: Int
    package var column: Int

    package init(
        _ trigger: Trigger = .after(0), _ command: Command, say: String? = nil,
        line: Int = 0, column: Int = 0
    ) {
        self.trigger = trigger
        self.command = command
        self.say = say
        self.line = line
        self.column = column
    }

    package static func == (a: Step, b: Step) -> Bool {
        a.trigger == b.trigger && a.command == b.command && a.say == b.say
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(trigger)
        hasher.combine(command)
        hasher.combine(say)
    }
}

/// What makes a step run: `at`, `after` or `when` (the core's `StepTrigger`, which the one
/// step runner plays).
package typealias Trigger = StepTrigger
