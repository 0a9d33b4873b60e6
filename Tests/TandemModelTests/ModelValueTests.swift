import Testing
import TandemModel
import Foundation
import TandemTestSupport

@Suite("Model values: Frame, Traits, Element, AdjustFormatter")
struct ModelValueTests {
    // MARK: Frame

    @Test("two frames share a row when their top edges are less than the threshold apart, whatever their heights")
    func sharesRow() {
        let top = Frame(x: 0, y: 100, width: 100, height: 10)
        #expect(top.sharesRow(with: Frame(x: 200, y: 107, width: 50, height: 400)), "7 points apart: one row")
        #expect(!top.sharesRow(with: Frame(x: 200, y: 108, width: 50, height: 4)), "8 points apart: two rows on a phone")
        #expect(top.sharesRow(with: Frame(x: 200, y: 93, width: 50, height: 4)), "the rule is symmetric")
        #expect(Frame(x: 200, y: 108, width: 50, height: 4).sharesRow(with: top, threshold: Frame.tabletRowThreshold), "13 on a tablet")
        #expect(!Frame(x: 200, y: 113, width: 50, height: 4).sharesRow(with: top, threshold: Frame.tabletRowThreshold))
        let tall = Frame(x: 0, y: 0, width: 100, height: 100)
        #expect(!tall.sharesRow(with: Frame(x: 200, y: 70, width: 50, height: 40)), "overlapping heights do not make a row")
    }

    @Test("a union covers both frames")
    func union() {
        let a = Frame(x: 10, y: 20, width: 30, height: 40), b = Frame(x: 0, y: 50, width: 5, height: 50)
        #expect(a.union(b) == Frame(x: 0, y: 20, width: 40, height: 80))
        #expect(a.union(a) == a)
    }

    @Test("frames intersect only with a positive shared area")
    func intersects() {
        let a = Frame(x: 0, y: 0, width: 10, height: 10)
        #expect(a.intersects(Frame(x: 5, y: 5, width: 10, height: 10)))
        #expect(!a.intersects(Frame(x: 10, y: 0, width: 10, height: 10)))
    }

    // MARK: Traits

    @Test("every trait name in the contract maps to its own bit and back")
    func traitNames() {
        let names = Traits.named.map(\.name)
        #expect(names.count == 22 && Set(names).count == 22)
        for name in names { #expect(Traits(name: name)?.names == [name]) }
        #expect(Traits(name: "Button") == nil)
        #expect(Traits([.adjustable, .button, .header]).names == ["button", "header", "adjustable"])
    }

    // MARK: Element

    @Test("an element has content when it has anything VoiceOver could present or do")
    func hasContent() {
        var e = Element(id: "e")
        #expect(!e.hasContent)
        let setters: [(inout Element) -> Void] = [
            { $0.label = .plain("L") }, { $0.value = "V" }, { $0.hint = "H" }, { $0.traits = .button },
            { $0.actions = [CustomAction(name: "A", effects: [])] },
            { $0.adjust = Adjust(value: 0, min: 0, max: 1, step: 1, format: nil, effects: []) },
            { $0.activate = [] }, { $0.progress = Progress(label: nil, value: nil) },
        ]
        for set in setters {
            var x = Element(id: "x")
            set(&x)
            #expect(x.hasContent)
        }
        // Frames, children and presentation-only fields are not content.
        e.frame = Frame(x: 0, y: 0, width: 1, height: 1)
        e.brailleLabel = .plain("B")
        e.magicTap = []
        #expect(!e.hasContent)
    }

    // MARK: AdjustFormatter

    @Test("whole numbers render without a fraction, others with up to three decimals")
    func numbers() {
        #expect(AdjustFormatter.format(number: 3, language: "en") == "3")
        #expect(AdjustFormatter.format(number: -3, language: "en") == "-3")
        #expect(AdjustFormatter.format(number: 0.5, language: "en") == "0.5")
        #expect(AdjustFormatter.format(number: 2.25, language: "en") == "2.25")
        #expect(AdjustFormatter.format(number: 1.0004, language: "en") == "1")
        #expect(AdjustFormatter.format(number: 1.2346, language: "en") == "1.235")
        #expect(AdjustFormatter.format(number: -0.25, language: "en") == "-0.25")
        #expect(AdjustFormatter.format(number: 1234.5, language: nil) == "1234.5")
    }

    @Test("languages that write a decimal comma get one")
    func decimalComma() {
        #expect(AdjustFormatter.format(number: 0.75, language: "pt-BR") == "0,75")
        #expect(AdjustFormatter.format(number: -1.5, language: "ru") == "-1,5")
        #expect(AdjustFormatter.format(number: 2.5, language: "de-AT") == "2,5")
        #expect(AdjustFormatter.format(number: 2.5, language: "en-GB") == "2.5")
        #expect(AdjustFormatter.format(number: 2.5, language: "pt") == "2,5")
        #expect(AdjustFormatter.format(number: 2.5, language: "pta") == "2.5", "only the language subtag counts")
    }

    @Test("the number renders through the adjust format into the value")
    func renderThroughFormat() {
        let a = Adjust(value: 1.5, min: 0, max: 10, step: 0.5, format: "%@ kg no carrinho", effects: [])
        #expect(AdjustFormatter.render(a, language: "pt-BR") == "1,5 kg no carrinho")
        var e = Element(id: "stepper")
        e.value = "ignored while adjustable"
        #expect(e.displayValue(language: "en") == "ignored while adjustable")
        e.adjust = Adjust(value: 3, min: 0, max: 10, step: 1, format: nil, effects: [])
        #expect(e.displayValue(language: "en") == "3")
    }

    @Test("very large and very small adjust values render without trapping")
    func extremeNumbers() {
        for n in [1e15, 1e16 + 0.5, 9.3e18, 1e300, -1e300, Double.greatestFiniteMagnitude, 1e-9, -1e-300] {
            let text = AdjustFormatter.format(number: n, language: "pt-BR")
            #expect(!text.isEmpty)
        }
        #expect(AdjustFormatter.format(number: 1e20, language: "en") == "1e+20")
        #expect(AdjustFormatter.format(number: 1e-9, language: "en") == "0")
        #expect(AdjustFormatter.format(number: -0.0001, language: "en") == "0", "no minus sign on a number that rounds to zero")
        #expect(AdjustFormatter.format(number: 1.5e20, language: "pt-BR") == "1,5e+20")
    }
}

/// Docs/formats.md#element lists every trait name a catalog takes, in `Traits.named`'s order.
@Suite("the formats doc's trait list")
struct TraitListDocTests {
    @Test("the element table's traits row names exactly the traits the decoder knows")
    func traitRowMatchesTheTable() throws {
        let doc = try String(contentsOfFile: PackageRoot.path("Docs/formats.md"), encoding: .utf8)
        let row = try #require(doc.split(separator: "\n").first { $0.hasPrefix("| `traits` | list of: `") })
        let listed = row.dropFirst("| `traits` | list of: `".count).prefix { $0 != "`" }.split(separator: " ").map(String.init)
        #expect(listed == Traits.named.map(\.name))
    }
}
