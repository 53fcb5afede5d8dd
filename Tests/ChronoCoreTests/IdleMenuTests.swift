import Testing
@testable import ChronoCore

@Suite("Idle menu: one-button interaction between sessions (SPEC §7)")
struct IdleMenuTests {
    let at = SessionScript.at

    func menu() throws -> IdleMenu {
        let one = try TrainingInterval(seconds: 60), ten = try TrainingInterval(seconds: 600)
        var book = IntervalPatternBook()
        book.assign(ranked: [.builtInPreset, one, ten])
        return IdleMenu(lastConfiguration: configuration(.challenge, seconds: 300, count: 3), presets: [.builtInPreset, one, ten], patterns: book)
    }

    func run(_ menu: inout IdleMenu, _ events: [SessionEvent]) -> [IdleMenu.Effect] {
        var effects: [IdleMenu.Effect] = []
        for event in events { effects += menu.handle(event) }
        while let deadline = menu.nextDeadline { effects += menu.handle(.deadline(now: deadline)) }
        return effects
    }

    @Test("idle tap starts the last configuration")
    func tapStartsLast() throws {
        var menu = try menu()
        var script = SessionScript()
        script.tap(1)
        let effects = run(&menu, script.events)
        #expect(effects == [.startSession(configuration(.challenge, seconds: 300, count: 3), at: at(1.1))])
    }

    @Test("long presses cycle presets announced by their H(I); a tap picks")
    func browseAndPick() throws {
        var menu = try menu()
        var script = SessionScript()
        script.longPress(1)    // offers 5m 0s at 2.5
        script.longPress(4)    // offers 1m 0s at 5.5
        script.tap(8)
        let effects = run(&menu, script.events)
        let offered = effects.compactMap { if case .presetOffered(let interval, _) = $0 { return interval.seconds } else { return nil } }
        #expect(offered == [300, 60])
        let patterns = effects.compactMap { if case .motor(let pattern, _, _) = $0 { return pattern.description } else { return nil } }
        #expect(patterns == ["S", "L"])
        guard case .startPreset(let chosen, _) = effects.last else { Issue.record("no session started"); return }
        #expect(chosen.interval.seconds == 60)
        #expect(chosen.plannedCount == 3)
        #expect(chosen.intervalPattern.description == "L")
        #expect(menu.lastConfiguration.interval.seconds == 60)
    }

    @Test("browsing times out back to idle")
    func timeout() throws {
        var menu = try menu()
        var script = SessionScript()
        script.longPress(1)
        let effects = run(&menu, script.events)
        #expect(effects.last == .backToIdle(at: at(12.5)))
        #expect(menu.state == .idle)
    }
}
