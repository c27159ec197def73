import Foundation
import IAPSimCore

/// Virtual time, as a `Clock` your app can be given: `sleep` waits until the store lets
/// virtual time reach the deadline (`advance(by:)`, `settle()`), never for wall time.
public struct SimulatedClock: Clock, Sendable {
    public typealias Duration = Swift.Duration

    /// A moment of virtual time, from 0 at the store's creation.
    public struct Instant: InstantProtocol, Sendable {
        /// Virtual time since the store's creation.
        public var offset: Swift.Duration
        /// The moment `offset` after the store's creation.
        public init(offset: Swift.Duration) { self.offset = offset }
        /// The moment `duration` later.
        public func advanced(by duration: Swift.Duration) -> Instant { Instant(offset: offset + duration) }
        /// The virtual time from this moment to `other`.
        public func duration(to other: Instant) -> Swift.Duration { other.offset - offset }
        /// Whether `a` comes before `b`.
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    let store: SimulatedStore

    /// The store's virtual time now.
    public var now: Instant { Instant(offset: store.now) }
    /// A millisecond: the world's unit.
    public var minimumResolution: Swift.Duration { .milliseconds(1) }

    /// Waits until virtual time reaches `deadline`. Throws `CancellationError` when your
    /// app's process crashes meanwhile.
    public func sleep(until deadline: Instant, tolerance: Swift.Duration? = nil) async throws {
        guard store.noteCall() else { throw CancellationError() }
        let at = VirtualTime(store.milliseconds(deadline.offset))
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, Error>) in
            let now: Result<Void, Error>? = store.locked {
                guard store.callerAlive else { return .failure(CancellationError()) }
                if at <= store.sim.now { return .success(()) }
                let task = currentTaskID()
                store.app.sleepers.append(
                    AppState.Sleeper(deadline: at, seq: store.app.nextSleeper, task: task, continuation: c))
                store.app.nextSleeper += 1
                store.blocked(task)
                return nil
            }
            if let now { c.resume(with: now) }
        }
    }
}

/// The keychain and files your app keeps across crashes: values by key, kept by the store.
/// `memory` is what a process holds and loses when it crashes; use it for what should not
/// survive one (a cache, say) when a test wants to show that it does not.
public final class SimulatedStorage: @unchecked Sendable {
    /// Where a value is kept.
    public enum Place: Sendable, Hashable, CaseIterable {
        /// The keychain: kept across crashes and reinstalls.
        case keychain
        /// The app's files: kept across crashes.
        case files
        /// The process's memory: gone with a crash.
        case memory
    }

    private let box = LockedBox<[Place: [String: Data]]>([:])

    /// The value kept under `key`, if any.
    public func data(_ key: String, in place: Place = .keychain) -> Data? { box.withLock { $0[place]?[key] } }

    /// Keeps `value` under `key` (nil removes it).
    public func set(_ value: Data?, for key: String, in place: Place = .keychain) {
        box.withLock { $0[place, default: [:]][key] = value }
    }

    /// The keys kept in `place`, sorted.
    public func keys(in place: Place = .keychain) -> [String] { box.withLock { ($0[place] ?? [:]).keys.sorted() } }

    func dropMemory() { box.withLock { $0[.memory] = [:] } }

    func clear() { box.withLock { $0 = [:] } }
}
