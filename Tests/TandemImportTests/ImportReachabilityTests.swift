import Foundation
import Testing
import TandemModel
import TandemNavigator
import TandemTestSupport
@testable import TandemImport

/// The import refuses a screen VoiceOver reaches nothing on without sorting the screen
/// (`ScreenBuilder.reachesAnything`); these check that it says what `ReadingOrder` says, on
/// every fixture and on element tables made for the cases where the two could part.
@Suite("tandem import: nothing reachable, without the reading order")
struct ImportReachabilityTests {
    static func agrees(_ elements: [Element]) -> (quick: Bool, order: Bool) {
        var table = ScreenBuilder()
        table.elements = elements
        let screen = Screen(id: "s", title: nil, focus: nil, magicTap: nil, escape: nil, elements: elements)
        return (table.reachesAnything, !ReadingOrder(screen: screen, language: "en").elements.isEmpty)
    }

    @Test("every fixture, both platforms' rules: the quick answer is the reading order's")
    func fixtures() throws {
        let folder = PackageRoot.url("Tests/Fixtures/import")
        for platform in ["ios", "android", "bad"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(platform).path).sorted() where name.hasSuffix(".xml") {
                let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(platform).appendingPathComponent(name)))
                guard let tree = try? PageTree(bytes, file: name) else { continue }
                for rules in [Platform.ios, .android] {
                    var table = ScreenBuilder()
                    switch rules {
                    case .ios:
                        var r = IOSRules(file: name)
                        guard (try? r.screen(tree, into: &table)) != nil else { continue }
                    case .android:
                        var r = AndroidRules(file: name, density: nil)
                        guard (try? r.screen(tree, into: &table)) != nil else { continue }
                    }
                    var ids = IDMaker()
                    table.makeIDs(&ids)
                    let (quick, order) = Self.agrees(table.elements)
                    #expect(quick == order, "\(platform)/\(name) with the \(rules) rules")
                }
            }
        }
    }

    @Test("a modal with no stop inside hides the stops outside it; the last modal is the one in front")
    func modals() {
        func element(_ id: String, accessible: Bool, modal: Bool = false, parent: Int?, children: [Int] = []) -> Element {
            var e = Element(id: id)
            e.accessible = accessible
            e.modal = modal
            e.parent = parent
            e.children = children
            e.label = accessible ? .plain(id) : nil
            return e
        }
        // root: a stop, an empty modal.
        let emptyModal = [element("root", accessible: false, parent: nil, children: [1, 2]),
                          element("stop", accessible: true, parent: 0),
                          element("sheet", accessible: false, modal: true, parent: 0)]
        #expect(Self.agrees(emptyModal) == (false, false))
        // root: a modal with a stop, then an empty modal (in front).
        let twoModals = [element("root", accessible: false, parent: nil, children: [1, 3]),
                         element("first", accessible: false, modal: true, parent: 0, children: [2]),
                         element("inside", accessible: true, parent: 1),
                         element("second", accessible: false, modal: true, parent: 0)]
        #expect(Self.agrees(twoModals) == (false, false))
        // The front modal holds a stop deep inside.
        let deep = [element("root", accessible: false, parent: nil, children: [1]),
                    element("sheet", accessible: false, modal: true, parent: 0, children: [2]),
                    element("group", accessible: false, parent: 1, children: [3]),
                    element("ok", accessible: true, parent: 2)]
        #expect(Self.agrees(deep) == (true, true))
        let none = [element("root", accessible: false, parent: nil, children: [1]),
                    element("group", accessible: false, parent: 0)]
        #expect(Self.agrees(none) == (false, false))
    }
}
