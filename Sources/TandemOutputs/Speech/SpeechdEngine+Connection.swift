import Glibc

extension SpeechdEngine {
    /// One attempt to open every component's connection. Success: `.status(available: true)`
    /// and the kept backlog starts draining. Failure: `.status(available: false)` the first
    /// time, then silence while retrying with backoff.
    func connect() {
        guard let address else {
            worker.setAvailable(false, "speech-dispatcher address \"\(addressText)\" is not one of unix_socket:PATH or inet_socket:HOST:PORT; speech is off")
            nextAttempt = .max
            return
        }
        var opened: [SpeechComponent: SSIPConnection] = [:]
        do throws(SSIPError) {
            for component in SpeechComponent.allCases {
                let c = try SSIPConnection.open(address, component: component, user: user, voice: voice,
                                                replyTimeoutMs: timing.replyTimeout, sendBuffer: sendBuffer, stopFD: worker.stopFD, clock: clock, trace: trace)
                c.goodbyeWriteMs = timing.goodbyeWrite
                opened[component] = c
            }
        } catch {
            for c in opened.values { c.close() }
            nextAttempt = clock.deadline(afterMilliseconds: backoff.next())
            if outageSince == nil { outageSince = clock.now() }
            worker.setAvailable(false, "no speech-dispatcher at \(address) (\(error.message)); speech durations are estimated until it answers")
            return
        }
        connections = opened
        backoff.reset()
        outageSince = nil
        lastActivity = clock.now()
        let again = kept.count
        let message = (worker.lastReportedAvailability == nil
            ? "connected to speech-dispatcher at \(address)"
            : "speech-dispatcher is back at \(address)" + (again > 0 ? "; saying \(again) kept message\(again == 1 ? "" : "s") again" : ""))
            + givenUpNote()
        worker.setAvailable(true, message)
        for t in kept { t.messageID = nil; t.begunAt = nil; t.cancelRequested = false }
        sendKept()
    }

    /// The connection is gone (broken, or hung): close everything, tell the session, and give
    /// up what went stale; kept utterances wait for the next connection.
    func lose(_ error: SSIPError) {
        guard isConnected else { return }
        for c in connections.values {
            // Best effort, without waiting: a daemon that was only stuck drops what it queued
            // for Tandem instead of saying it after the replay.
            c.sayGoodbye()
            c.close()
        }
        connections = [:]
        outageSince = clock.now()
        backoff.reset()
        nextAttempt = clock.deadline(afterMilliseconds: backoff.next())
        if worker.lastReportedAvailability != false {
            let lost: String
            switch error {
            case .timeout: lost = "speech-dispatcher stopped answering"
            case .broken, .unreachable: lost = "lost speech-dispatcher"
            case .stopped: lost = "stopped"
            }
            worker.setAvailable(false, "\(lost) (\(error.message)); reconnecting")
        }
        let inFlight = byMessage.values.sorted { $0.sentAt < $1.sentAt }
        byMessage = [:]
        starting = nil
        for t in inFlight where !t.isKept {
            finish(t, .cancel, synthetic: true)
        }
        for t in kept {
            t.messageID = nil
            t.begunAt = nil
        }
    }

    /// On `stop`: silence Tandem's speech and say goodbye, without waiting for answers.
    func shutdown() {
        for c in connections.values {
            c.sayGoodbye()
            c.close()
        }
        connections = [:]
    }

    /// The login name for `CLIENT_NAME` (speech-dispatcher's clients use it as the first part).
    static func userName() -> String {
        var name = "user"
        if let pw = getpwuid(getuid()), let n = pw.pointee.pw_name { name = String(cString: n) }
        let safe = name.unicodeScalars.filter { s in
            (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9") || s == "_" || s == "-" || s == "."
        }
        return safe.isEmpty ? "user" : String(String.UnicodeScalarView(safe))
    }
}
