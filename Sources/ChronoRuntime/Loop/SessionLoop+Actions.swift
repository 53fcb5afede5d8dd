import ChronoCore

/// What the controller's actions become: vibrations for the motor gate, everything else handed to a
/// worker (the loop itself does no I/O).
extension SessionLoop {
    func execute(_ actions: [LoopAction], now: MonotonicInstant) {
        for action in actions {
            switch action {
            case .vibrate(let vibration):
                gate.add(vibration, now: now)
            case .playAversiveSound:
                soundPlayer?.play()
            case .console(let line):
                postLine(line)
            case .state(let state):
                publish(state)
            case .sessionStarted(let record):
                if let recorder = sinks.recorder { recordWriter.post { recorder.sessionStarted(record) } }
            case .sessionFinished(let record):
                if let recorder = sinks.recorder { recordWriter.post { recorder.sessionFinished(record) } }
            case .event(let event):
                guard let events = sinks.events else { break }
                let publishedAt = driver.now()
                if case .sessionFinished = event {
                    recordWriter.post { events.deliver(event, publishedAt: publishedAt) }
                } else {
                    displayWriter.post { events.deliver(event, publishedAt: publishedAt) }
                }
            case .offLoop(let job):
                // After both writers' earlier work: a reply to a request must find the state it
                // changed already published (display) and its record already saved (records).
                let records = recordWriter
                displayWriter.post { records.post(job) }
            }
        }
    }

    func postLine(_ line: String) {
        let console = sinks.console
        displayWriter.post { console.writeLine(line) }
    }

    private func publish(_ state: DeviceState) {
        guard state != lastState else { return }
        lastState = state
        if let publisher = statePublisher { displayWriter.post { publisher.publish(state) } }
        if let events = sinks.events {
            let publishedAt = driver.now()
            displayWriter.post { events.deliver(.state(state), publishedAt: publishedAt) }
        }
    }
}
