import CX11

/// X's keyboard focus, asked before the bridge types keys (Docs/atspi.md#actions): the window
/// XTEST's keys go to now and the process it belongs to. A connection of its own to the
/// display of `DISPLAY`; nil without one (no X server: a Wayland session, or none).
final class XKeyboardFocus: @unchecked Sendable {  // its Display is used on the AtspiLoop thread only
    private let display: OpaquePointer
    private let root: Window
    private let pidAtom: Atom
    private let nameAtom: Atom
    private let utf8Atom: Atom

    init?() {
        guard let d = XOpenDisplay(nil) else { return nil }
        tandem_x_ignore_errors()
        display = d
        root = XDefaultRootWindow(d)
        pidAtom = XInternAtom(d, "_NET_WM_PID", 0)
        nameAtom = XInternAtom(d, "_NET_WM_NAME", 0)
        utf8Atom = XInternAtom(d, "UTF8_STRING", 0)
    }

    deinit { XCloseDisplay(display) }

    /// The window keys go to now. X's focus window, or, when the focus is PointerRoot or the
    /// root window, the window under the pointer; its owner is the `_NET_WM_PID` of it or of
    /// its nearest ancestor that has one (under a window manager, focus is on the client's
    /// window inside the manager's frame).
    func target() -> KeyReach.XTarget {
        var focus: Window = 0
        var revert: Int32 = 0
        XGetInputFocus(display, &focus, &revert)
        var window = focus
        if focus == Window(PointerRoot) || focus == root {
            var rootReturn: Window = 0, child: Window = 0
            var rootX: Int32 = 0, rootY: Int32 = 0, x: Int32 = 0, y: Int32 = 0
            var mask: UInt32 = 0
            guard XQueryPointer(display, root, &rootReturn, &child, &rootX, &rootY, &x, &y, &mask) != 0 else { return .nowhere }
            window = child
        }
        guard window != Window(None) else { return .nowhere }
        var current = window
        for _ in 0..<32 {
            if let pid = pid(of: current) { return .window(pid: pid, title: title(of: current)) }
            guard let parent = parent(of: current), parent != root, parent != Window(None) else { break }
            current = parent
        }
        return .window(pid: nil, title: title(of: window))
    }

    private func parent(of window: Window) -> Window? {
        var rootReturn: Window = 0, parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        guard XQueryTree(display, window, &rootReturn, &parent, &children, &count) != 0 else { return nil }
        if let children { XFree(children) }
        return parent
    }

    /// A property's bytes (at most `length` 32-bit units), or nil when the window has none of that type.
    private func property<T>(_ window: Window, _ atom: Atom, type: Atom, length: Int, _ read: (UnsafeMutablePointer<UInt8>, Int, Int32) -> T?) -> T? {
        var actualType: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XGetWindowProperty(display, window, atom, 0, length, 0, type, &actualType, &format, &count, &after, &data)
        defer { if let data { XFree(data) } }
        guard status == Success, actualType == type, count > 0, let data else { return nil }
        return read(data, Int(count), format)
    }

    /// `_NET_WM_PID`: the process that says it owns the window.
    private func pid(of window: Window) -> Int32? {
        property(window, pidAtom, type: tandem_x_cardinal(), length: 1) { data, _, format in
            // a format-32 property comes as C longs
            format == 32 ? data.withMemoryRebound(to: CLong.self, capacity: 1) { Int32(truncatingIfNeeded: $0.pointee) } : nil
        }
    }

    /// `_NET_WM_NAME` (UTF-8), else `WM_NAME`.
    private func title(of window: Window) -> String? {
        let utf8 = property(window, nameAtom, type: utf8Atom, length: 256) { data, count, format in
            format == 8 ? String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self) : nil
        }
        return utf8 ?? property(window, tandem_x_wm_name(), type: tandem_x_string(), length: 256) { data, count, format in
            format == 8 ? String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self) : nil
        }
    }
}
