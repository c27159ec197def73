import Testing

@testable import IAPSimServe

/// The Your backend panel names what each notification carried (the review: "it never shows
/// which notification was sent"); the transcript's line is unchanged.
@Suite struct PanelLineTests {
    @Test func aNotificationsLineNamesItsTypeAndSubtype() {
        var e = HTTPExchange(virtual: 0, method: "POST", path: "/apple/notifications", headers: [], body: "{}")
        e.status = 200
        e.what = "REFUND"
        #expect(e.panelLine == "POST /apple/notifications REFUND -> 200")
        #expect(e.line == "POST /apple/notifications -> 200")
        e.status = 500
        e.answer = "oops"
        e.what = "SUBSCRIBED/INITIAL_BUY"
        #expect(e.panelLine == "POST /apple/notifications SUBSCRIBED/INITIAL_BUY -> 500 \"oops\"")
    }

    @Test func otherExchangesAreShownAsTheTranscriptShowsThem() {
        var e = HTTPExchange(virtual: 0, method: "POST", path: "/apple/report", headers: [], body: "{}")
        e.status = 200
        #expect(e.panelLine == e.line)
    }
}
