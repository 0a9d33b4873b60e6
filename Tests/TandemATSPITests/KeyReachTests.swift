import TandemATSPI
import TandemPresentation
import Testing

/// The rule that decides whether the bridge may type keys into a web field
/// (Docs/atspi.md#actions), from what AT-SPI and X say; `WebTypingFocusTests` has it against a
/// real Chromium with a GTK window in front.
@Suite struct KeyReachTests {
    static let pid: Int32 = 4242

    static func decide(active: Bool, _ x: KeyReach.XTarget?) -> KeyReach {
        KeyReach.decide(windowActive: active, x: x, appPID: pid, appName: "Chromium")
    }

    static func spoken(_ reach: KeyReach, in phrases: Phrases = .english) -> String? {
        if case .elsewhere(let why) = reach { return why.spoken(in: phrases) }
        return nil
    }

    @Test func theFieldsActiveWindowWithXsFocusGetsTheKeys() {
        #expect(Self.decide(active: true, .window(pid: Self.pid, title: "Sign Up - Chromium")) == .field)
    }

    @Test func anotherProcessesWindowWithXsFocusIsNamed() {
        // Chromium still says its window is active (its state lags X's), X knows better
        let reach = Self.decide(active: true, .window(pid: 17, title: "Pantry"))
        #expect(Self.spoken(reach) == "Not typed: Pantry has the keyboard")
        guard case .elsewhere(let why) = reach else { return }
        #expect(why.reason == "X sends keys to another window, \"Pantry\" (process 17), not to Chromium's")
        // a window without a title
        #expect(Self.spoken(Self.decide(active: true, .window(pid: 17, title: nil))) == "Not typed: another window has the keyboard")
        #expect(Self.spoken(Self.decide(active: true, .window(pid: 17, title: ""))) == "Not typed: another window has the keyboard")
    }

    @Test func keysGoingNowhereAreNotTyped() {
        #expect(Self.spoken(Self.decide(active: true, .nowhere)) == "Not typed: no window has the keyboard")
    }

    @Test func theApplicationsWindowThatIsNotActiveIsRefused() {
        // X's focus in the application's process, but another of its windows (AT-SPI: the
        // field's window is not active)
        #expect(Self.spoken(Self.decide(active: false, .window(pid: Self.pid, title: "DevTools"))) == "Not typed: Chromium's window does not have the keyboard")
    }

    @Test func withoutXOrAWindowsPidAtSpiDecides() {
        // no X display (Wayland), or a window that names no process
        #expect(Self.decide(active: true, nil) == .field)
        #expect(Self.decide(active: true, .window(pid: nil, title: "Sign Up")) == .field)
        #expect(Self.spoken(Self.decide(active: false, nil)) == "Not typed: Chromium's window does not have the keyboard")
        #expect(Self.spoken(Self.decide(active: false, .window(pid: nil, title: nil))) == "Not typed: Chromium's window does not have the keyboard")
    }

    @Test("the user is told in the bridge's language (--language), the log stays English")
    func toldInTheSessionsLanguage() {
        let other = Self.decide(active: true, .window(pid: 17, title: "Pantry"))
        #expect(Self.spoken(other, in: .portuguese) == "Não digitado: Pantry tem o teclado")
        #expect(Self.spoken(other, in: .russian) == "Текст не введён: клавиатура у окна «Pantry»")
        #expect(Self.spoken(other, in: Phrases.forLanguage("pt-PT")) == "Não digitado: Pantry tem o teclado")
        #expect(Self.spoken(Self.decide(active: true, .window(pid: 17, title: nil)), in: .portuguese) == "Não digitado: outra janela tem o teclado")
        #expect(Self.spoken(Self.decide(active: true, .nowhere), in: .russian) == "Текст не введён: ни одно окно не получает клавиатуру")
        #expect(Self.spoken(Self.decide(active: false, nil), in: .portuguese) == "Não digitado: a janela de Chromium não tem o teclado")
        guard case .elsewhere(let why) = other else { return }
        #expect(why.reason.hasPrefix("X sends keys to another window"))
    }
}
