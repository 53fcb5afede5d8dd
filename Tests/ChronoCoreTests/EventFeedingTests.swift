import ChronoCore
import Testing

@Suite("One feeding order for the loop and the virtual clock")
struct EventFeedingTests {
    static func at(_ ms: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: ms * 1_000_000) }

    /// A receiver with fixed deadlines that records what it was fed.
    final class Receiver {
        var deadlines: [MonotonicInstant]
        var fed: [SessionEvent] = []
        init(_ deadlines: [MonotonicInstant]) { self.deadlines = deadlines }
        var next: MonotonicInstant? { deadlines.first }
        func handle(_ event: SessionEvent) -> Bool {
            fed.append(event)
            if case .deadline(let now) = event, deadlines.first == now { deadlines.removeFirst() }
            return true
        }
    }

    @Test("Sound lost noticed at a wake-up comes after a button edge stamped earlier; deadlines in between at their instants")
    func instantOrder() {
        let receiver = Receiver([Self.at(30), Self.at(70), Self.at(150)])
        let edge = SessionEvent.button(RawButtonEdge(pressed: true, at: Self.at(50)))
        let result = EventFeeding.feed([.soundLost(at: Self.at(100)), edge], deadlinesUpTo: Self.at(100),
                                       nextDeadline: { receiver.next }, handle: receiver.handle)
        #expect(receiver.fed == [.deadline(now: Self.at(30)), edge, .deadline(now: Self.at(70)), .soundLost(at: Self.at(100))])
        #expect(result.inputsFed == 2 && !result.stopped && result.stalledAt == nil)
        // The deadline after `now` waits for its turn.
        #expect(receiver.next == Self.at(150))
    }

    @Test("Edges with the same stamp keep the order they came in; a stop ends the batch")
    func stableAndStop() {
        let press = SessionEvent.button(RawButtonEdge(pressed: true, at: Self.at(10)))
        let release = SessionEvent.button(RawButtonEdge(pressed: false, at: Self.at(10)))
        var fed: [SessionEvent] = []
        let result = EventFeeding.feed([press, release, .endRequested(at: Self.at(20)), .soundLost(at: Self.at(30))],
                                       deadlinesUpTo: nil, nextDeadline: { nil }) { event in
            fed.append(event)
            if case .endRequested = event { return false }
            return true
        }
        #expect(fed == [press, release, .endRequested(at: Self.at(20))])
        #expect(result.stopped && result.inputsFed == 3)
    }

    @Test("A deadline that does not advance stops the feeding instead of spinning")
    func stall() {
        var count = 0
        let result = EventFeeding.feed([], deadlinesUpTo: nil, nextDeadline: { Self.at(5) }) { _ in
            count += 1
            return true
        }
        #expect(count == 1 && result.stalledAt == Self.at(5))
    }
}
