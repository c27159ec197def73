import Foundation
import IAPSimCore
import IAPSimScenario
import Testing

@Suite struct ExportTests {
    func exampleRecords() throws -> [RunRecord] {
        ScenarioPlayer.run(try ScenarioParser.load(path: Fixtures.path("format-example.yaml"))).records
    }

    @Test func jsonLinesAreOneObjectPerLineWithTimeAndKind() throws {
        let text = JSONLinesExport.text(try exampleRecords())
        #expect(text.hasSuffix("\n"))
        let lines = text.split(separator: "\n")
        #expect(lines.count > 20)
        var kinds: Set<String> = []
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let fields = try #require(object, "\(line)")
            #expect(fields["t"] is Int, "\(line)")
            #expect(fields["clock"] is String, "\(line)")
            kinds.insert(try #require(fields["kind"] as? String))
        }
        #expect(
            kinds.isSuperset(of: [
                "step", "commandIssued", "paymentCharged",
                "transactionsDelivered", "coinsCredited", "settled",
            ]))
    }

    @Test func jsonLinesNameEveryFactField() {
        let entry = LogEntry(
            time: 2_160, part: .appStore,
            fact: .paymentCharged(
                txn: "1000000000001", product: "coins_100", priceCents: 99))
        #expect(
            JSONLinesExport.line(.entry(entry)) == """
                {"t":2160,"clock":"0:00:02.160","part":"App Store","kind":"paymentCharged",\
                "txn":"1000000000001","product":"coins_100","priceCents":99,\
                "text":"charged 0.99 for coins_100 (1000000000001)"}
                """)
        let finished = LogEntry(time: 5, part: .storeKit, fact: .transactionFinished(txn: "t1"))
        #expect(
            JSONLinesExport.line(.entry(finished)) == """
                {"t":5,"clock":"0:00:00.005","part":"StoreKit","kind":"transactionFinished",\
                "txn":"t1","text":"finishTransaction(t1)"}
                """)
        let sent = LogEntry(
            time: 0, part: .app,
            fact: .rechargeSent(
                txn: "t1", order: nil, user: "alice", reason: .resend(.launch), forDelivered: nil))
        #expect(
            JSONLinesExport.line(.entry(sent))?.contains(
                #""txn":"t1","order":null,"user":"alice","reason":"resent from saved receipt at launch","forDelivered":null"#
            )
                == true)
    }

    @Test func jsonLinesEscapeStrings() {
        let step = Step(.after(0), .crash, say: "a \"quote\"\n\\ and\ttab", line: 3)
        #expect(
            JSONLinesExport.line(.stepStarted(number: 1, step: step, time: 0)) == """
                {"t":0,"clock":"0:00:00.000","kind":"step","step":1,"line":3,"do":"crash",\
                "say":"a \\"quote\\"\\n\\\\ and\\ttab"}
                """)
    }

    @Test func diagramIsAMermaidSequenceWithTheSixLanes() throws {
        let diagram = MermaidExport.diagram(try exampleRecords())
        let lines = diagram.split(separator: "\n").map(String.init)
        #expect(
            Array(lines.prefix(7)) == [
                "sequenceDiagram",
                "    participant User",
                "    participant App",
                "    participant StoreKit",
                "    participant Server as Merchant server",
                "    participant AppStore as App Store",
                "    participant Attacker",
            ])
        #expect(lines.contains("    User->>App: buy coins_100"))
        #expect(lines.contains("    Note over App: app process died: memory, timers and callbacks gone"))
        #expect(lines.contains("    App->>Server: POST /recharge"))
        #expect(lines.contains("    Server->>AppStore: verifyReceipt"))
        #expect(lines.contains("    Note left of User: Alice taps \"Buy 100 coins\"."))
        #expect(lines.contains { $0.hasPrefix("    Note over User,Attacker: auditor: A1 lost-order") })
        // Every `;` is part of an entity, never a statement end.
        #expect(
            !diagram.replacingOccurrences(
                of: "#[0-9]+;", with: "", options: .regularExpression
            ).contains(";"))
    }

    @Test func diagramDrawsLostMessagesAsCrossesAndEscapesEntities() {
        let records: [RunRecord] = [
            .entry(
                LogEntry(
                    time: 0, part: .network,
                    fact: .messageSent(
                        id: 7, route: .recharge, direction: .response, bytes: 10, sender: .attacker))),
            .entry(
                LogEntry(
                    time: 0, part: .network,
                    fact: .messageDropped(
                        id: 7, route: .recharge, direction: .response))),
            .entry(LogEntry(time: 0, part: .fault, fact: .faultArmed("a; b <c> #1"))),
        ]
        #expect(
            MermaidExport.diagram(records).split(separator: "\n").suffix(2) == [
                "    Server-xAttacker: recharge answer (lost)",
                "    Note over App,AppStore: fault armed: a#59; b #60;c#62; #35;1",
            ])
    }
}
