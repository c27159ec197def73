import IAPSimCore

extension PanelContent {
    /// Under `iapsim serve` the Merchant server panel is "Your backend": the backend's own
    /// ledger as it last answered (accounts, coins, entitlements, its rows), then the HTTP
    /// exchanges, newest first, with the virtual time they left at and their wall time.
    var backend: [Line] {
        guard let link = sim.external else { return server }
        var out: [Line] = []
        if let ledger = link.ledger {
            for a in ledger.accounts {
                var line: Line = [
                    Span(TextWidth.pad(a.id, to: 9), Style(bold: true)),
                    Span(
                        sim.config.catalog.balance(a.coins),
                        a.coins > 0 ? Style(.good, bold: true) : Style(.dim)),
                ]
                if !a.entitlements.isEmpty {
                    line.append(Span(" +" + a.entitlements.joined(separator: ","), Style(.info)))
                }
                out.append(line)
            }
            if ledger.accounts.isEmpty { out.append(label("ledger", "no accounts yet", Style(.dim))) }
            out += wrappedLabel(
                "rows",
                "\(ledger.credits.count) credits, \(ledger.clawbacks.count) clawbacks, "
                    + "\(ledger.restores.count) restores", Style(.dim))
        } else {
            out.append(
                label("ledger", link.blind ? "none (blind: credits are not seen)" : "not read yet", Style(.warn)))
        }
        // The ids your backend saw, so that its own logs can be searched for what this UI shows.
        let names = sim.users.map { "\($0)=\(link.merchant.backendName($0))" }
        out.append(label("ids", names.joined(separator: " "), Style(.dim)))
        for t in sim.store.chargedTransactions.suffix(3) {
            out.append(label("", "\(t.id)=\(link.merchant.backendTransaction(t.id))", Style(.dim)))
        }
        out.append(label("HTTP", link.calls.isEmpty ? "no exchange yet" : "newest first", Style(.dim)))
        for call in link.calls.reversed() where out.count < limit {
            let failed = !Self.succeeded(call.text)
            // Whole seconds: the panel is narrow, and the Events panel has the milliseconds.
            // Right-aligned to now's width: the column stays straight past 99 hours.
            let clock = seconds(call.time)
            let width = max(7, seconds(max(call.time, sim.now)).count)
            // The call wraps under itself: its status and time are at its end.
            let indent = width + 1
            for (n, part) in Wrap.words(call.text, width: max(8, self.width - indent)).enumerated() {
                out.append([
                    Span(
                        n == 0
                            ? String(repeating: " ", count: width - clock.count) + clock + " "
                            : String(
                                repeating: " ", count: indent), Style(.dim)),
                    Span(part, failed ? Style(.bad) : Style()),
                ])
            }
        }
        return out
    }

    /// `POST /apple/report -> 200 (4 ms)`: a 2xx answer.
    static func succeeded(_ text: String) -> Bool {
        guard let arrow = text.range(of: "-> ") else { return false }
        return text[arrow.upperBound...].hasPrefix("2")
    }
}

extension PanelContent {
    /// `label`, its value wrapped under itself to the panel's width instead of cut.
    func wrappedLabel(_ text: String, _ value: String, _ style: Style) -> [Line] {
        Wrap.words(value, width: max(8, width - 9)).enumerated().map { n, part in
            label(n == 0 ? text : "", part, style)
        }
    }

    /// `DurationText.clock` to the whole second (`0:00:05`).
    func seconds(_ t: VirtualTime) -> String {
        DurationText.clock(t).split(separator: ".").first.map(String.init) ?? ""
    }
}
