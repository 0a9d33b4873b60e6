import Foundation
import Testing
import TandemModel
import TandemTestSupport
@testable import TandemImport

/// UiAutomator dumps: the stops TalkBack would reach, walked in VoiceOver's order and said in
/// its words (Docs/import.md#android). Expected lists are worked out from the rules and the
/// fixtures' bounds (1080 pixels wide: 3 pixels a point).
@Suite("tandem import android")
struct AndroidImportTests {
    @Test("settings.xml: TalkBack's stops, merged rows, checkable state, secure and disabled fields, tabs")
    func settingsWalk() throws {
        let stops = [
            "Navigate up, button",                               // content-desc
            "Settings",                                          // text with no focusable ancestor
            "Wi-Fi, Connected to HomeNet, switch button, on",    // clickable row: its texts merged, its Switch's state
            "Bluetooth, switch button, off",                     // … a CheckBox's
            "button",                                            // an ImageButton with no content-desc
            "switch button, off",                                // a Switch with no text anywhere
            "Search settings, text field",                       // text equal to its hint: an empty field
            "PIN, ••••, secure text field",                      // password="true"
            "About phone",
            "Reset, dimmed, button",                             // enabled="false"
            "Brightness, 40, adjustable",                        // SeekBar: its text is its value
            "selected, Dark theme, button",                      // a checked RadioButton
            "selected, Home, tab, 1 of 3",                       // TabLayout: tabs; selected="true"
            "Alerts, tab, 2 of 3",
            "Account, tab, 3 of 3",                              // a tab speaks its TextView
        ]                                                        // not reached: "Developer options" (displayed="false"), the list
        #expect(try ImportSupport.walk("android/settings.xml", platform: "android") == ImportSupport.walked(stops))
    }

    @Test("a focusable node with nothing to say and children on screen is passed over; a silent leaf stays a stop")
    func silentFocusableWrappers() throws {
        let stops = [
            "Mobile data, 2.1 GB used this month",   // the clickable row: its texts, not the widget frame's switch
            "Mobile data, switch button, on",        // the switch in the focusable widget frame (the frame itself is no stop)
            "Order history\n3 orders",               // inside a focusable full-screen view (Flutter's shape) that says nothing
            "Reorder, button",
            "button",                                // an ImageButton whose only child is not displayed: a leaf, kept
        ]
        #expect(try ImportSupport.walk("android/focusable-wrappers.xml", platform: "android") == ImportSupport.walked(stops))
        let screen = try ImportSupport.importFixture("android/focusable-wrappers.xml", platform: .android).catalog.screens[0]
        #expect(screen["widget-frame"] == nil)
        #expect(screen["filter"]?.accessible == true)
    }

    @Test("a row repeating an older row after one that differs has the older row's role and state, not the one between")
    func rowAfterADifferentRow() throws {
        // The reader copies row 2's class and checked from row 0 (`PageTree.template`); row 1,
        // a checked radio button, is between them.
        func row(_ n: Int, _ className: String, _ checked: Bool) -> String {
            "  <node package=\"com.example\" class=\"\(className)\" text=\"Row \(n)\" checkable=\"true\" checked=\"\(checked)\" clickable=\"true\" focusable=\"true\" bounds=\"[0,\(n * 300)][1080,\(n * 300 + 240)]\"/>\n"
        }
        let xml = "<hierarchy rotation=\"0\" width=\"1080\" height=\"2400\">\n" + row(0, "android.widget.Switch", false)
            + row(1, "android.widget.RadioButton", true) + row(2, "android.widget.Switch", false) + "</hierarchy>\n"
        let screen = try PageSourceImporter(platform: .android)
            .importCatalog([PageSourceFile(name: "rows.xml", screenID: "rows", bytes: Array(xml.utf8))]).catalog.screens[0]
        #expect(screen["row-0"]?.traits == [.button, .switchButton])
        #expect(screen["row-0"]?.value == "0")
        #expect(screen["row-1"]?.traits == [.button, .selected])
        #expect(screen["row-1"]?.value == nil)
        #expect(screen["row-2"]?.traits == [.button, .switchButton])
        #expect(screen["row-2"]?.value == "0")
    }

    @Test("a clickable ImageView is an image button, said \"button\"; a long-clickable or plain one stays an image")
    func clickableImageView() throws {
        let xml = """
        <hierarchy rotation="0" width="1080" height="2400">
          <node class="android.widget.ImageView" content-desc="Settings" clickable="true" focusable="true" bounds="[900,100][1040,240]"/>
          <node class="androidx.appcompat.widget.AppCompatImageView" content-desc="Photo" long-clickable="true" focusable="true" bounds="[60,300][500,700]"/>
          <node class="android.widget.ImageView" content-desc="Logo" bounds="[60,800][500,900]"/>
        </hierarchy>
        """
        let screen = try PageSourceImporter(platform: .android)
            .importCatalog([PageSourceFile(name: "images.xml", screenID: "images", bytes: Array(xml.utf8))]).catalog.screens[0]
        #expect(screen["settings"]?.traits == .button)
        #expect(screen["settings"]?.activate == nil, "a button activates as a button: no app action needed")
        #expect(screen["photo"]?.traits == .image)
        #expect(screen["logo"]?.traits == .image)
    }

    @Test("duplicate resource ids: the first keeps the name, the next are -2, -3 (Docs/import.md#ids)")
    func duplicateResourceIDs() throws {
        let screen = try ImportSupport.importFixture("android/settings.xml", platform: .android).catalog.screens[0]
        #expect(screen["row"]?.label == .plain("Wi-Fi, Connected to HomeNet"))
        #expect(screen["row-2"]?.label == .plain("Bluetooth"))
    }

    @Test("hint: a text field's labels it; another node's is its hint, said after the pause")
    func hints() throws {
        let screen = try ImportSupport.importFixture("android/settings.xml", platform: .android).catalog.screens[0]
        #expect(screen["pin"]?.label == .plain("PIN"))
        #expect(screen["pin"]?.hint == nil)
        #expect(screen["reset"]?.hint == "Restores the defaults")
    }

    @Test("bounds become points: the screen's width taken as 360 points, or --density")
    func density() throws {
        let guessed = try ImportSupport.importFixture("android/settings.xml", platform: .android).catalog.screens[0]
        #expect(guessed["navigate-up"]?.frame == Frame(x: 0, y: 24, width: 56, height: 56))   // [0,72][168,240] / 3
        let given = try ImportSupport.importFixture("android/settings.xml", platform: .android, density: 2.625).catalog.screens[0]
        #expect(given["navigate-up"]?.frame == Frame(x: 0, y: 27.43, width: 64, height: 64))  // / 2.625, to 0.01
        // No width on <hierarchy>: the widest node (720 pixels) is the screen.
        let dump = try ImportSupport.importFixture("android/dialer-dump.xml", platform: .android).catalog.screens[0]
        #expect(dump["call"]?.frame == Frame(x: 140, y: 550, width: 80, height: 80))          // [280,1100][440,1260] / 2
    }

    @Test("an adb dump on one line: each element's column is where its <node starts")
    func oneLineColumns() throws {
        let imported = try ImportSupport.importFixture("android/dialer-dump.xml", platform: .android)
        let text = try String(contentsOf: PackageRoot.url(ImportSupport.fixture("android/dialer-dump.xml")), encoding: .utf8)
        let screen = imported.catalog.screens[0]
        for (id, marker) in [("title", #"<node index="0" text="Dialer""#), ("call", #"<node index="1" text="" resource-id="com.example.dialer:id/call""#)] {
            let range = try #require(text.range(of: marker))
            let column = text.distance(from: text.startIndex, to: range.lowerBound) + 1
            #expect(imported.sources[0][try #require(screen.index[id])] == SourceLocation(file: ImportSupport.fixture("android/dialer-dump.xml"), line: 1, column: column))
        }
        // A custom class: a plain element, a warning.
        #expect(screen["voicemail"]?.label == .plain("2 voicemails"))
        #expect(imported.warnings.count == 1)
        #expect(imported.warnings.first?.message.hasPrefix("unknown class com.example.dialer.VoicemailBadge") == true)
    }

    @Test("TalkBack's merge: a focusable container's texts in document order; a focusable child stays its own stop")
    func mergeKeepsFocusableChildren() throws {
        let xml = """
        <hierarchy rotation="0" width="1080" height="2400">
          <node class="android.widget.LinearLayout" clickable="true" focusable="true" bounds="[0,0][1080,300]">
            <node class="android.widget.TextView" text="Order 1042" bounds="[30,30][700,90]"/>
            <node class="android.widget.LinearLayout" bounds="[30,90][700,150]">
              <node class="android.widget.TextView" text="Shipped" bounds="[30,90][300,150]"/>
              <node class="android.widget.ImageView" content-desc="Express" bounds="[300,90][360,150]"/>
            </node>
            <node class="android.widget.Button" text="Track" clickable="true" focusable="true" bounds="[800,30][1050,270]">
              <node class="android.widget.TextView" text="ignored: the button's own" bounds="[810,40][1040,260]"/>
            </node>
          </node>
        </hierarchy>
        """
        let catalog = try PageSourceImporter(platform: .android)
            .importCatalog([PageSourceFile(name: "order.xml", screenID: "order", bytes: Array(xml.utf8))]).catalog
        let stops = catalog.screens[0].elements.filter { $0.accessible == true }.map { "\($0.id): \($0.label.map { "\($0)" } ?? "-")" }
        #expect(stops == ["linearlayout: plain(\"Order 1042, Shipped, Express\")", "track: plain(\"Track\")"])
    }
}

@Suite("Android bounds")
struct BoundsTests {
    @Test("[x1,y1][x2,y2] with integers, decimals, negatives and spaces; anything else is not bounds")
    func pixels() {
        #expect(AndroidRules.pixels("[0,72][168,240]")! == (0, 72, 168, 240))
        #expect(AndroidRules.pixels("[-100,200][300.5,300]")! == (-100, 200, 300.5, 300))
        #expect(AndroidRules.pixels("[ 1, 2 ][ 3, 4 ]")! == (1, 2, 3, 4))
        for bad in ["[0,0][720", "", "[0,0,0][1,1]", "[a,0][1,1]", "[0,0][1,1]x", "0,0][1,1]", "[1--2,0][1,1]", "[1.2.3,0][1,1]", "[,0][1,1]", "[0,0][1,1][2,2]"] {
            #expect(AndroidRules.pixels(bad) == nil, "\(bad)")
        }
    }
}
