/// Where everything goes on a screen of a given size: header, the narration box (play
/// mode), three bands of panels, the status line and the footer.
struct Layout: Sendable, Hashable {
    var width: Int
    var height: Int
    var narration: Rect?
    var panels: [Panel: Rect]
    var statusRow: Int { height - 2 }
    var footerRow: Int { height - 1 }

    init(width: Int, height: Int, play: Bool) {
        self.width = width
        self.height = height
        let wide = width >= 120 && height >= 40
        var y = 1
        var body = height - 3
        if play {
            let h = wide ? 7 : 5
            narration = Rect(x: 0, y: y, width: width, height: h)
            y += h
            body -= h
        }
        let top = max(5, body * 36 / 100)
        let mid = max(4, body * 29 / 100)
        let events = body - top - mid
        let app = max(24, width / 4)
        let queue = width - app - max(24, width * 32 / 100)
        let network = width / 2
        panels = [
            .app: Rect(x: 0, y: y, width: app, height: top),
            .queue: Rect(x: app, y: y, width: queue, height: top),
            .server: Rect(x: app + queue, y: y, width: width - app - queue, height: top),
            .network: Rect(x: 0, y: y + top, width: network, height: mid),
            .auditor: Rect(x: network, y: y + top, width: width - network, height: mid),
            .events: Rect(x: 0, y: y + top + mid, width: width, height: events),
        ]
    }
}
