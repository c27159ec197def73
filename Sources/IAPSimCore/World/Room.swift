import HeapModule

/// The room of a world that is done with: explore runs one world after another on each
/// thread, and restarts it for the next run (`Simulation.restart`, the harness) instead of allocating
/// every list again. Each list of the old world is emptied (its
/// elements released, its capacity kept) and handed to the new world in place of its own
/// empty list. Only an empty list is replaced, so the new world holds exactly what a fresh
/// one holds; only capacities differ, and nothing reads a capacity.
enum Room {
    @inline(__always)
    static func move<Element>(_ old: inout [Element], into fresh: inout [Element]) {
        guard fresh.isEmpty, old.capacity > fresh.capacity else { return }
        old.removeAll(keepingCapacity: true)
        swap(&old, &fresh)
    }

    @inline(__always)
    static func move<Element>(_ old: inout Heap<Element>, into fresh: inout Heap<Element>) {
        guard fresh.isEmpty else { return }
        // Swift Collections' heap has no removeAll(keepingCapacity:); this one keeps it.
        if !old.isEmpty { old.removeAll(where: { _ in true }) }
        swap(&old, &fresh)
    }

    @inline(__always)
    static func move<Key, Value>(_ old: inout SmallMap<Key, Value>, into fresh: inout SmallMap<Key, Value>) {
        guard fresh.isEmpty else { return }
        old.removeAll(keepingCapacity: true)
        swap(&old, &fresh)
    }
}

extension World {
    /// Takes the room of `old`, a world nobody needs any more; `self` is fresh (nothing has
    /// happened in it yet). The harness hands its onlooker's room over beside it.
    mutating func takeRoom(from old: inout World) {
        Room.move(&old.queue, into: &queue)
        outbox.takeRoom(from: &old.outbox)
        store.takeRoom(from: &old.store)
        app.takeRoom(from: &old.app)
        server.takeRoom(from: &old.server)
        network.takeRoom(from: &old.network)
    }
}

extension Outbox {
    mutating func takeRoom(from old: inout Outbox) {
        Room.move(&old.facts, into: &facts)
        Room.move(&old.timers, into: &timers)
        Room.move(&old.sends, into: &sends)
        Room.move(&old.pending, into: &pending)
        Room.move(&old.freeSlots, into: &freeSlots)
    }
}

extension AppStore {
    mutating func takeRoom(from old: inout AppStore) {
        Room.move(&old.transactions, into: &transactions)
        Room.move(&old.open, into: &open)
        Room.move(&old.interrupted, into: &interrupted)
    }
}

extension AppProcess {
    mutating func takeRoom(from old: inout AppProcess) {
        Room.move(&old.parked, into: &parked)
        Room.move(&old.awaiting, into: &awaiting)
        Room.move(&old.tickets, into: &tickets)
        Room.move(&old.memory, into: &memory)
        Room.move(&old.waitingForLogin, into: &waitingForLogin)
        Room.move(&old.inFlight, into: &inFlight)
        Room.move(&old.retriesUsed, into: &retriesUsed)
        Room.move(&old.files, into: &files)
        Room.move(&old.keychain, into: &keychain)
    }
}

extension MerchantServer {
    mutating func takeRoom(from old: inout MerchantServer) {
        Room.move(&old.orders, into: &orders)
        Room.move(&old.credits, into: &credits)
        Room.move(&old.entitlements, into: &entitlements)
        Room.move(&old.verifying, into: &verifying)
    }
}

extension Network {
    mutating func takeRoom(from old: inout Network) {
        Room.move(&old.history, into: &history)
        // The totals start from the shared table of zeros; the old world's own copy of it,
        // zeroed, saves the copy that the first message would make.
        guard old.routeTotals.count == routeTotals.count else { return }
        for i in old.routeTotals.indices { old.routeTotals[i] = RouteTotals() }
        swap(&old.routeTotals, &routeTotals)
    }
}
