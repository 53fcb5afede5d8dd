import Testing
@testable import ChronoCore

/// What a press means while a pairing request waits (the idle menu), and the queue of waiting requests.
@Suite("Pairing on the device: the gesture's meaning and the waiting requests")
struct PairingDecisionTests {
    let at = SessionScript.at

    func menu() throws -> IdleMenu {
        let one = try TrainingInterval(seconds: 60)
        var book = IntervalPatternBook()
        book.assign(ranked: [.builtInPreset, one])
        return IdleMenu(lastConfiguration: configuration(.challenge, seconds: 300, count: 3), presets: [.builtInPreset, one], patterns: book)
    }

    func run(_ menu: inout IdleMenu, _ events: [SessionEvent]) -> [IdleMenu.Effect] {
        var effects: [IdleMenu.Effect] = []
        for event in events { effects += menu.handle(event) }
        while let deadline = menu.nextDeadline { effects += menu.handle(.deadline(now: deadline)) }
        return effects
    }

    @Test("with a request announced, a tap still starts the last session, and the request stays announced")
    func tapStartsSession() throws {
        var menu = try menu()
        menu.pairingAnnounced(at: at(0.5))
        var script = SessionScript()
        script.tap(1)
        #expect(run(&menu, script.events) == [.startSession(configuration(.challenge, seconds: 300, count: 3), at: at(1.1))])
        #expect(menu.pairingAnnouncedAt == at(0.5))
    }

    @Test("with a request announced, a long press in idle approves it (at recognition) and browses nothing")
    func longPressApproves() throws {
        var menu = try menu()
        menu.pairingAnnounced(at: at(0.5))
        var script = SessionScript()
        script.longPress(1)
        #expect(run(&menu, script.events) == [.approvePairing(at: at(2.5))])
        #expect(menu.state == .idle)
        #expect(menu.pairingAnnouncedAt == nil)
        // The next long press browses again: one press approves one request.
        script = SessionScript()
        script.longPress(4)
        #expect(run(&menu, script.events).first == .presetOffered(.builtInPreset, at: at(5.5)))
    }

    @Test("without a request a long press offers the first preset with its H(I)")
    func longPressBrowses() throws {
        var menu = try menu()
        var script = SessionScript()
        script.longPress(1)
        let effects = run(&menu, script.events)
        #expect(Array(effects.prefix(2)) == [.presetOffered(.builtInPreset, at: at(2.5)),
                                             .motor(HapticPattern([.short]), label: .preset(.builtInPreset), at: at(2.5))])
        // Withdrawn (expired or answered): browsing again.
        menu = try self.menu()
        menu.pairingAnnounced(at: at(0.5))
        menu.pairingWithdrawn()
        #expect(run(&menu, script.events).first == .presetOffered(.builtInPreset, at: at(2.5)))
    }

    @Test("a press begun before the announcement cannot approve: it browses")
    func pressBeforeAnnouncement() throws {
        var menu = try menu()
        var script = SessionScript()
        script.longPress(1)
        _ = menu.handle(script.events[0])                       // pressed at 1.0
        menu.pairingAnnounced(at: at(1.2))                      // the request comes while it is held
        let effects = run(&menu, Array(script.events.dropFirst()))
        #expect(effects.first == .presetOffered(.builtInPreset, at: at(2.5)))
        #expect(menu.pairingAnnouncedAt == at(1.2))
    }

    @Test("while browsing a long press moves to the next preset; approval only from idle")
    func browsingIsNotInterrupted() throws {
        var menu = try menu()
        func edge(_ pressed: Bool, _ seconds: Double) -> SessionEvent { .button(RawButtonEdge(pressed: pressed, at: at(seconds))) }
        _ = menu.handle(edge(true, 1))
        #expect(menu.handle(.deadline(now: at(2.5))).first == .presetOffered(.builtInPreset, at: at(2.5)))
        _ = menu.handle(edge(false, 3))
        menu.pairingAnnounced(at: at(3.2))                       // the request comes while browsing
        _ = menu.handle(edge(true, 4))
        #expect(menu.handle(.deadline(now: at(5.5))).first == .presetOffered(try TrainingInterval(seconds: 60), at: at(5.5)))
        _ = menu.handle(edge(false, 6))
        // Back to idle after the browse timeout; then a long press approves.
        #expect(menu.handle(.deadline(now: at(15.5))) == [.backToIdle(at: at(15.5))])
        var script = SessionScript()
        script.longPress(20)
        #expect(run(&menu, script.events) == [.approvePairing(at: at(21.5))])
    }

    @Test("the pairing-request cue is B t t B, distinct from every other cue")
    func cue() {
        #expect(HapticCue.pairingRequest.pattern.description == "B t t B")
        #expect(HapticCue.pairingRequest.name == "pairing-request")
        #expect(HapticCue.all.filter { $0.pattern == HapticCue.pairingRequest.pattern } == [.pairingRequest])
    }

    // MARK: The queue

    static let anna = PairingRequester(name: "Anna's phone", address: "192.168.1.20")
    static let stranger = PairingRequester(name: "Stranger", address: "192.168.1.66")

    @Test("one request is shown at a time; the next one's window starts when it is shown")
    func queueWindows() {
        var queue = PairingQueue()
        #expect(queue.add(Self.stranger, window: .seconds(30), at: at(0)) == .queued(id: 1, shown: true))
        #expect(queue.add(Self.anna, window: .seconds(30), at: at(10)) == .queued(id: 2, shown: false))
        #expect(queue.current?.requester == Self.stranger)
        #expect(queue.nextDeadline == at(30))
        #expect(queue.expire(at: at(29.999)).isEmpty)
        #expect(queue.expire(at: at(30)).map(\.requester) == [Self.stranger])
        // Anna's request arrived at 10 s but is shown from 30 s: it keeps its whole 30 s.
        #expect(queue.current?.requester == Self.anna)
        #expect(queue.current?.shownAt == at(30))
        #expect(queue.nextDeadline == at(60))
        #expect(queue.approveCurrent(at: at(45))?.requester == Self.anna)
        #expect(queue.current == nil)
        #expect(queue.nextDeadline == nil)
        #expect(queue.approveCurrent(at: at(46)) == nil)
    }

    @Test("the queue holds at most its capacity; removeAll empties it oldest first")
    func queueCapacity() {
        var queue = PairingQueue()
        for index in 0..<PairingQueue.capacity {
            #expect(queue.add(PairingRequester(name: "p\(index)", address: "10.0.0.\(index)"), window: .seconds(30), at: at(0))
                    == .queued(id: index + 1, shown: index == 0))
        }
        #expect(queue.add(Self.anna, window: .seconds(30), at: at(1)) == .full)
        #expect(queue.removeAll().map(\.requester.name) == (0..<PairingQueue.capacity).map { "p\($0)" })
        #expect(queue.current == nil)
    }
}
