import IAPSimCore
import IAPSimScenario

@testable import IAPSimTUI

/// Drives a model the way the terminal edge does: messages only.
struct Driver {
    var model: UIModel
    var effects: [UIEffect] = []
    var framesBeforeWork: [Grid] = []

    init(_ model: UIModel, width: Int = 120, height: Int = 40) {
        self.model = model
        effects += self.model.update(.resize(width: width, height: height))
    }

    mutating func keys(_ text: String) {
        for ch in text { take(model.update(.key(.char(ch)))) }
    }

    mutating func key(_ key: Key, times: Int = 1) {
        for _ in 0..<times { take(model.update(.key(key))) }
    }

    /// Keeps the effects, and answers `.afterFrame` at once, as the edge does after its frame
    /// (`framesBeforeWork` keeps what each such frame showed).
    mutating func take(_ new: [UIEffect]) {
        for effect in new {
            effects.append(effect)
            if case .afterFrame(let message) = effect {
                framesBeforeWork.append(screen())
                take(model.update(message))
            }
        }
    }

    /// Lets `wallMs` of wall time pass in ticks of 100 ms.
    mutating func wait(wallMs: Int) {
        var left = wallMs
        while left > 0 {
            effects += model.update(.tick(wallMs: min(100, left)))
            left -= 100
        }
    }

    func screen(_ w: Int = 120, _ h: Int = 40) -> Grid { model.render(width: w, height: h) }

    /// `model` after `b` Enter (coins_100) and `wallMs` of wall time at 1x.
    static func bought(_ model: UIModel = UIModel(), wallMs: Int) -> Driver {
        var d = Driver(model)
        d.keys("b")
        d.key(.enter)
        d.wait(wallMs: wallMs)
        return d
    }

    /// Naive policy: buy coins_100 with a crash armed on `charged`, then 3 s: the charge
    /// sits unfinished in the queue, inside the auditor's grace period.
    static func naiveCrashAtCharge() -> Driver {
        var d = Driver(UIModel(preset: .naive))
        d.keys("b")
        d.key(.enter)
        d.keys("c2")
        d.wait(wallMs: 3_000)
        return d
    }
}
