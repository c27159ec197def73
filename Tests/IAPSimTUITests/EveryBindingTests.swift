import IAPSimCore
import Testing

@testable import IAPSimScenario
@testable import IAPSimTUI

/// Every key of the one key table, pressed in a state that fits it: the key reaches its own
/// binding (no other one shadows it there), is never answered "not bound" or "not now", and
/// does something a person sees (the screen changes) or asks the edge for something (an
/// effect: quit, save, a file). A binding added to the table is pressed here too.
@Suite struct EveryBindingTests {
    /// A world where `binding` can act: a purchase made and its grace running, in the world
    /// (StoreKit 1 or 2) or mode (play, the tour's files) it needs.
    static func fitting(_ binding: KeyBinding) throws -> Driver {
        switch binding.context {
        case .always, .live, .sandbox, .storeKit1:
            return Driver.bought(UIModel(preset: .hardened), wallMs: 3_000)
        case .storeKit2, .storeKit2Live:
            return Driver.bought(UIModel(preset: .sk2Hardened), wallMs: 3_000)
        case .play:
            let file = "lost-order-crash-at-charge-naive.yaml"
            var d = Driver(UIModel(play: try RenderGoldenTests.shipped(file), file: "scenarios/\(file)"))
            d.key(.enter)
            return d
        case .browse:
            return Driver(UIModel(tour: try TourTests.tour()))
        }
    }

    /// What must happen first so that the key has something to move: a list scrolled away
    /// from where the key takes it, a step to go back over.
    static func prepare(_ action: UIAction, _ d: inout Driver) {
        switch action {
        case .newest, .scrollDown, .pageDown:
            // The Events panel, the longest, scrolled to its oldest line.
            while d.model.focus != .events { d.key(.tab) }
            d.key(.home)
        case .scrollLeft: d.key(.right)
        case .stepBack: d.key(.enter)
        default: break
        }
    }

    @Test func everyKeyOfTheTableActsInAStateThatFitsIt() throws {
        var pressed = 0
        for binding in KeyBinding.all {
            for key in binding.keys {
                var d = try Self.fitting(binding)
                Self.prepare(binding.action, &d)
                let label = "\(binding.written) (\(key.name), \(binding.action))"
                #expect(
                    KeyBinding.binding(for: key, in: d.model)?.action == binding.action,
                    "\(label): another binding takes the key here")
                let before = d.screen()
                let effects = d.effects.count
                d.key(key)
                let status = d.model.status ?? ""
                #expect(!status.contains("not bound"), "\(label): \(status)")
                #expect(!status.contains(" works "), "\(label): \(status)")
                #expect(
                    d.effects.count > effects || d.screen() != before,
                    "\(label): nothing changed on screen and nothing was asked of the edge")
                pressed += 1
            }
        }
        #expect(pressed >= KeyBinding.all.count)
    }
}
