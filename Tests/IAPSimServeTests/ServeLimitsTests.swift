import Testing

@testable import IAPSimServe

@Suite struct ServeLimitsTests {
    @Test func limitsAreSERVEmdsWallClockBounds() {
        #expect(ServeLimits.notificationAnswerSeconds == 10)
        #expect(ServeLimits.healthzWaitSeconds == 30)
        #expect(ServeLimits.tickAnswerSeconds == 60)
        #expect(ServeLimits.spawnKillGraceSeconds == 5)
    }
}
