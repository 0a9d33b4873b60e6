import FuzzSupport
import TandemModel
import TandemNavigator
import TandemVocabulary
import TandemProtocol

/// Any bytes as a client's lines (Docs/protocol.md): each line either decodes or is refused
/// with an error naming that line, never a trap. The app's `screen`, `update` and `set`
/// messages that decode are applied, in order, to one navigator in app mode, as the service
/// applies them; after each, the reading order the navigator repaired must be the order built
/// again from scratch (Docs/architecture.md: an update costs what it changes, never a rebuild).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProtocol(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = Array(UnsafeRawBufferPointer(start: data, count: size))
    var navigator = Navigator.placeholder("fuzz", language: "en")
    navigator.forwardsActions = true
    for (n, line) in input.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
        switch MessageDecoder.decode(Array(line), line: n + 1) {
        case .failure(let error):
            precondition(error.line == n + 1, "error on line \(n + 1) names line \(error.line): \(error.message)")
            precondition(!error.message.isEmpty, "an empty error message on line \(n + 1)")
        case .success(let incoming):
            switch incoming.message {
            case .screen(let screen): _ = navigator.show(screen)
            case .update(let update): do { _ = try navigator.apply(update) } catch {}
            case .set(let id, let patch): _ = navigator.set(id) { patch.apply(to: &$0) }
            case .command(let command): _ = navigator.perform(command)
            default: continue
            }
            checkRepairedOrder(&navigator, line: n + 1)
        }
    }
    return 0
}

/// The kept reading order equals a fresh one: the same elements in the same order, the same
/// headings and modal root, and the same answer to "can this element be reached" for every
/// element still in the tree.
func checkRepairedOrder(_ navigator: inout Navigator, line: Int) {
    let kept = navigator.readingOrder()
    let fresh = ReadingOrder(screen: navigator.screen, language: navigator.language)
    precondition(kept.elements == fresh.elements, "line \(line): repaired order \(kept.elements) differs from rebuilt \(fresh.elements)")
    precondition(kept.headings == fresh.headings, "line \(line): repaired headings differ from rebuilt")
    precondition(kept.modalRoot == fresh.modalRoot, "line \(line): repaired modal root differs from rebuilt")
    for (i, e) in navigator.screen.elements.enumerated() where !e.isRemoved {
        precondition(kept.accessible[i] == fresh.accessible[i], "line \(line): \(e.id) reachable \(kept.accessible[i]) after repair, \(fresh.accessible[i]) rebuilt")
    }
    if let f = navigator.focusIndex {
        precondition(!navigator.screen.elements[f].isRemoved, "line \(line): focus on removed element \(navigator.screen.elements[f].id)")
    }
}
