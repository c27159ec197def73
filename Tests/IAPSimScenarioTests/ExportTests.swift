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
        #expect(lines.contains("    App->>Server: POST /recharge (1000000000001, no order)"))
        #expect(lines.contains("    Server-->>App: credited 1000000000001"))
        #expect(lines.contains("    Server->>AppStore: verifyReceipt"))
        #expect(lines.contains("    Note left of User: Alice taps \"Buy 100 coins\"."))
        #expect(lines.contains { $0.hasPrefix("    Note over User,Attacker: auditor: A1 lost-order") })
        // Every `;` is part of an entity, never a statement end.
        #expect(
            !diagram.replacingOccurrences(
                of: "#[0-9]+;", with: "", options: .regularExpression
            ).contains(";"))
    }

    /// A message is labelled with what the facts of its moment say it carries: the app's
    /// `rechargeSent`, the server's credit before its answer, the attacker's replay.
    @Test func diagramLabelsEachMessageWithWhatTheLogSaysItCarries() {
        func at(_ t: Int, _ part: Part, _ fact: Fact) -> RunRecord { .entry(LogEntry(time: t, part: part, fact: fact)) }
        let records: [RunRecord] = [
            at(
                0, .app,
                .rechargeSent(
                    txn: "1000000000001", order: "o1", user: "alice", reason: .firstDelivery, forDelivered: nil)),
            at(0, .network, .messageSent(id: 1, route: .recharge, direction: .request, bytes: 9, sender: .app)),
            at(80, .network, .messageArrived(id: 1, route: .recharge, direction: .request, latencyMs: 80)),
            at(
                80, .server,
                .coinsCredited(
                    user: "alice", coins: 100, product: "coins_100", txn: "1000000000001", order: "o1", sender: .app,
                    via: .firstDelivery)),
            at(80, .network, .messageSent(id: 2, route: .recharge, direction: .response, bytes: 9, sender: .app)),
            at(160, .network, .messageDropped(id: 2, route: .recharge, direction: .response)),
            at(500, .attacker, .signedReplayPrepared(txn: "1000000000001")),
            at(500, .network, .messageSent(id: 3, route: .order, direction: .request, bytes: 9, sender: .attacker)),
            at(580, .network, .messageArrived(id: 3, route: .order, direction: .request, latencyMs: 80)),
            at(
                580, .server,
                .orderCreated(order: "o2", user: "alice", product: "coins_100", token: "t", sender: .attacker)),
            at(580, .network, .messageSent(id: 4, route: .order, direction: .response, bytes: 9, sender: .attacker)),
            at(660, .network, .messageArrived(id: 4, route: .order, direction: .response, latencyMs: 80)),
            at(660, .network, .messageSent(id: 5, route: .recharge, direction: .request, bytes: 9, sender: .attacker)),
            at(740, .network, .messageArrived(id: 5, route: .recharge, direction: .request, latencyMs: 80)),
        ]
        let arrows = MermaidExport.diagram(records).split(separator: "\n").filter {
            $0.contains("Server") && !$0.contains("Note")
        }
        #expect(
            arrows == [
                "    participant Server as Merchant server",
                "    App->>Server: POST /recharge (1000000000001, o1)",
                "    Server-xApp: credited 1000000000001 (lost)",
                "    Attacker->>Server: POST /orders",
                "    Server-->>Attacker: order o2 and token",
                "    Attacker->>Server: POST /recharge (replayed JWS of 1000000000001, o2)",
            ])
        // A handout reads the threads of the whole log: the order request takes the words of
        // its answer, and the exchange the attacker's request continues.
        let threads = MessageThreads(records.compactMap { if case .entry(let e) = $0 { e } else { nil } })
        #expect(threads.words(of: 3).contains("o2"))
        #expect(threads.words(of: 5).contains("1000000000001"))
        #expect(!threads.words(of: 1).contains("o2"))
    }

    @Test func aHandoutDiagramDeclaresOnlyTheLanesItUses() {
        let lines =
            MermaidExport.Stream.header + [
                "    App-xServer: POST /recharge (1, o1) (lost)", "    Note over User,Attacker: auditor: A1",
            ]
        #expect(
            MermaidExport.declaringOnlyUsed(lines) == [
                "sequenceDiagram", "    participant App", "    participant Server as Merchant server",
                "    App-xServer: POST /recharge (1, o1) (lost)", "    Note over App,Server: auditor: A1",
            ])
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
