import Testing
import TandemModel
import TandemTestSupport

/// A one-screen catalog whose root element has `children`; the first line of `children` is
/// line 8 of the document, so tests can name exact lines.
private func oneScreen(_ children: String) -> String {
    """
    {
      "format": "tandem.catalog/1",
      "screens": [{
        "id": "main",
        "root": {
          "id": "main.root",
          "children": [
    \(children)
          ]
        }
      }]
    }
    """
}

@Suite("CatalogDecoder errors: FILE:LINE: PATH: message")
struct CatalogDecoderErrorTests {
    @Test("an order entry naming a missing element is reported at its own line and JSON path")
    func orderEntryMissingInline() {
        let json = oneScreen("""
                { "id": "catalog.title", "label": "Catalog" },
                { "id": "catalog.search", "label": "Search" },
                { "id": "catalog.list",
                  "order": ["catalog.item",
                            "catalog.nothere"],
                  "children": [{ "id": "catalog.item", "label": "Item" }] }
            """)
        #expect(decodeError(json) == #"x.catalog.json:12: screens[0].root.children[2].order[1]: no element "catalog.nothere""#)
    }

    @Test("a fixture file's diagnostic names the file, the line and the path")
    func orderEntryMissingFixture() {
        #expect(throws: Diagnostic(file: "missing-order-entry.catalog.json", line: 15,
                                   path: "screens[0].root.children[2].order[1]", message: #"no element "catalog.nothere""#)) {
            try FixtureFolder.model.decode("missing-order-entry.catalog.json")
        }
    }

    @Test("an order entry must be a descendant of the element that lists it, on the same screen")
    func orderEntryNotADescendant() {
        let json = oneScreen("""
                { "id": "outside", "label": "Outside" },
                { "id": "list", "order": ["outside"], "children": [{ "id": "inside", "label": "In" }] }
            """)
        #expect(decodeError(json) == #"x.catalog.json:9: screens[0].root.children[1].order[0]: "outside" is not a descendant of "list""#)
        let selfReference = oneScreen("""
                { "id": "list", "order": ["list"], "children": [{ "id": "inside", "label": "In" }] }
            """)
        #expect(decodeError(selfReference) == #"x.catalog.json:8: screens[0].root.children[0].order[0]: "list" is not a descendant of "list""#)
    }

    @Test("a duplicate id is reported at the second definition and names the line of the first")
    func duplicateID() {
        let json = oneScreen("""
                { "id": "dup", "label": "First" },
                { "id": "fine", "label": "Fine" },
                { "id": "dup", "label": "Second" }
            """)
        #expect(decodeError(json) == #"x.catalog.json:10: screens[0].root.children[2].id: duplicate id "dup" (first defined at line 8, screens[0].root.children[0].id)"#)
    }

    @Test("element ids are unique across the whole catalog, not just one screen")
    func duplicateIDAcrossScreens() {
        let json = """
            {
              "format": "tandem.catalog/1",
              "screens": [
                { "id": "a", "root": { "id": "shared.root", "label": "A" } },
                { "id": "b", "root": { "id": "shared.root", "label": "B" } }
              ]
            }
            """
        #expect(decodeError(json) == #"x.catalog.json:5: screens[1].root.id: duplicate id "shared.root" (first defined at line 4, screens[0].root.id)"#)
    }

    @Test("a duplicate screen id names the line of the first")
    func duplicateScreenID() {
        let json = """
            {
              "format": "tandem.catalog/1",
              "screens": [
                { "id": "a", "root": { "id": "a.root", "label": "A" } },
                { "id": "a", "root": { "id": "b.root", "label": "B" } }
              ]
            }
            """
        #expect(decodeError(json) == #"x.catalog.json:5: screens[1].id: duplicate screen id "a" (first defined at line 4)"#)
    }

    @Test("a field of the wrong type names the expected and the found type")
    func wrongTypes() {
        #expect(decodeError(oneScreen(#"{ "id": "x", "hidden": "yes" }"#))
            == "x.catalog.json:8: screens[0].root.children[0].hidden: expected true or false, found a string")
        #expect(decodeError(oneScreen(#"{ "id": "x", "label": 3 }"#))
            == #"x.catalog.json:8: screens[0].root.children[0].label: expected a string or {"key", "args"}, found a number"#)
        #expect(decodeError(oneScreen(#"{ "id": "x", "frame": [0, 0, "wide", 10] }"#))
            == "x.catalog.json:8: screens[0].root.children[0].frame[2]: expected a number, found a string")
        #expect(decodeError(oneScreen(#"{ "id": "x", "children": {} }"#))
            == "x.catalog.json:8: screens[0].root.children[0].children: expected an array, found an object")
        #expect(decodeError(oneScreen(#"{ "id": 7 }"#))
            == "x.catalog.json:8: screens[0].root.children[0].id: expected a string, found a number")
        #expect(decodeError(oneScreen(#"{ "id": "x", "value": true }"#))
            == "x.catalog.json:8: screens[0].root.children[0].value: expected a string, found a boolean")
        #expect(decodeError(oneScreen(#"{ "id": "x", "traits": "button" }"#))
            == "x.catalog.json:8: screens[0].root.children[0].traits: expected an array, found a string")
        #expect(decodeError(oneScreen(#""x""#))
            == "x.catalog.json:8: screens[0].root.children[0]: expected an object, found a string")
        #expect(decodeError("[]") == "x.catalog.json:1: expected an object, found an array")
        #expect(decodeError(#"{"format": "tandem.catalog/1", "screens": {}}"#)
            == "x.catalog.json:1: screens: expected an array, found an object")
    }

    @Test("a frame needs exactly four numbers and no negative size")
    func badFrames() {
        #expect(decodeError(oneScreen(#"{ "id": "x", "frame": [0, 0, 10] }"#))
            == "x.catalog.json:8: screens[0].root.children[0].frame: a frame is [x, y, width, height], found 3 numbers")
        #expect(decodeError(oneScreen(#"{ "id": "x", "frame": [0, 0, -1, 10] }"#))
            == "x.catalog.json:8: screens[0].root.children[0].frame: a frame's width and height must not be negative")
    }

    @Test("an unknown trait is an error that lists the known ones")
    func unknownTrait() {
        let known = "button link header searchField image selected playsSound keyboardKey staticText summaryElement notEnabled updatesFrequently startsMediaSession adjustable allowsDirectInteraction causesPageTurn tabBar switchButton textField secureTextField backButton isEditing"
        #expect(decodeError(oneScreen(#"{ "id": "x", "traits": ["button", "bold"] }"#))
            == "x.catalog.json:8: screens[0].root.children[0].traits[1]: unknown trait \"bold\" (known: \(known))")
    }

    @Test("container, cell and device values are checked")
    func containerCellDeviceErrors() {
        #expect(decodeError(oneScreen(#"{ "id": "x", "container": "table" }"#))
            == "x.catalog.json:8: screens[0].root.children[0].container: unknown container type \"table\" (known: none list landmark dataTable semanticGroup segmentedControl)")
        #expect(decodeError(oneScreen(#"{ "id": "x", "cell": {"row": 1} }"#))
            == "x.catalog.json:8: screens[0].root.children[0].cell: missing field \"column\"")
        #expect(decodeError(oneScreen(#"{ "id": "x", "cell": {"row": -1, "column": 0} }"#))
            == "x.catalog.json:8: screens[0].root.children[0].cell.row: expected a whole number of at least 0, found -1")
        #expect(decodeError(oneScreen(#"{ "id": "x", "cell": {"row": 0, "column": 0, "rowSpan": 0} }"#))
            == "x.catalog.json:8: screens[0].root.children[0].cell.rowSpan: expected a whole number of at least 1, found 0")
        #expect(decodeError(oneScreen(#"{ "id": "x", "cell": {"row": 0, "column": 0, "header": "top"} }"#))
            == "x.catalog.json:8: screens[0].root.children[0].cell.header: unknown header kind \"top\" (known: row column)")
        #expect(decodeError(#"{"format": "tandem.catalog/1", "device": "watch", "screens": [{"id": "s", "root": {"id": "r"}}]}"#)
            == "x.catalog.json:1: device: unknown device \"watch\" (known: phone tablet)")
    }

    @Test("an unknown effect or notification is an error")
    func unknownEffect() {
        #expect(decodeError(oneScreen(#"{ "id": "x", "activate": [{ "explode": "x" }] }"#))
            == "x.catalog.json:8: screens[0].root.children[0].activate[0]: unknown effect (expected one of: set adjust show hide screen back post load)")
        #expect(decodeError(oneScreen(#"{ "id": "x", "activate": [{ "post": "vibrate" }] }"#))
            == #"x.catalog.json:8: screens[0].root.children[0].activate[0].post: unknown notification "vibrate" (known: announcement layoutChanged screenChanged pageScrolled)"#)
        #expect(decodeError(oneScreen(#"{ "id": "x", "activate": ["hide x"] }"#))
            == "x.catalog.json:8: screens[0].root.children[0].activate[0]: expected an effect object, found a string")
        #expect(decodeError(oneScreen(#"{ "id": "x", "activate": { "hide": "x" } }"#))
            == "x.catalog.json:8: screens[0].root.children[0].activate: expected an array, found an object")
    }

    @Test("an effect's fields are checked: required text, priorities, delays, back, load ranges")
    func effectFields() {
        func error(_ effect: String) -> String? {
            decodeError(oneScreen(#"{ "id": "x", "label": "X", "progress": {}, "activate": [\#(effect)] }"#))
        }
        let at = "x.catalog.json:8: screens[0].root.children[0].activate[0]"
        #expect(error(#"{ "post": "announcement" }"#) == #"\#(at): missing field "text""#)
        #expect(error(#"{ "post": "announcement", "text": "Hi", "priority": "urgent" }"#)
            == #"\#(at).priority: priority is "high" or "default", found "urgent""#)
        #expect(error(#"{ "post": "announcement", "text": "Hi", "delay": -5 }"#) == "\(at).delay: delay must be between 0 and 3600000 ms")
        #expect(error(#"{ "post": "announcement", "text": "Hi", "delay": 1.5 }"#) == "\(at).delay: expected a whole number, found 1.5")
        #expect(error(#"{ "post": "pageScrolled" }"#) == #"\#(at): missing field "text""#)
        #expect(error(#"{ "back": false }"#) == #"\#(at).back: "back" must be true"#)
        #expect(error(#"{ "load": "x", "steps": 0 }"#) == "\(at).steps: steps must be between 1 and 10000")
        #expect(error(#"{ "load": "x", "ms": -1 }"#) == "\(at).ms: ms must be between 0 and 3600000")
        #expect(error(#"{ "adjust": "x", "by": "one" }"#) == "\(at).by: expected a number, found a string")
        #expect(error(#"{ "set": "x", "hidden": 1 }"#) == "\(at).hidden: expected true or false, found a number")
        // The same effects, well formed, decode.
        #expect(error(#"{ "post": "announcement", "text": "Hi", "priority": "high", "delay": 0 }"#) == nil)
        #expect(error(#"{ "load": "x", "ms": 0, "steps": 10000 }"#) == nil)
    }

    @Test("an effect naming a missing element, adjustable or screen is an error at the reference")
    func effectReferences() {
        let at = "x.catalog.json:8: screens[0].root.children[0].activate[0]"
        func error(_ effect: String) -> String? {
            decodeError(oneScreen(#"{ "id": "plain", "label": "Plain", "activate": [\#(effect)] }"#))
        }
        #expect(error(#"{ "set": "ghost", "label": "Boo" }"#) == #"\#(at).set: no element "ghost""#)
        #expect(error(#"{ "show": "ghost" }"#) == #"\#(at).show: no element "ghost""#)
        #expect(error(#"{ "hide": "ghost" }"#) == #"\#(at).hide: no element "ghost""#)
        #expect(error(#"{ "screen": "nowhere" }"#) == #"\#(at).screen: no screen "nowhere""#)
        #expect(error(#"{ "post": "layoutChanged", "focus": "ghost" }"#) == #"\#(at).focus: no element "ghost""#)
        #expect(error(#"{ "post": "screenChanged", "focus": "ghost" }"#) == #"\#(at).focus: no element "ghost""#)
        #expect(error(#"{ "adjust": "plain" }"#) == #"\#(at).adjust: element "plain" has no "adjust""#)
        #expect(error(#"{ "adjust": "ghost" }"#) == #"\#(at).adjust: no element "ghost""#)
    }

    @Test("a load effect whose target has no progress is an error")
    func loadTargetWithoutProgress() {
        let json = oneScreen("""
                { "id": "checkout", "label": "Checkout", "traits": ["button"],
                  "activate": [{ "load": "spinner.without.progress", "ms": 1000 }] },
                { "id": "spinner.without.progress", "hidden": true, "label": "Loading" }
            """)
        #expect(decodeError(json) == #"x.catalog.json:9: screens[0].root.children[0].activate[0].load: element "spinner.without.progress" has no "progress" (a loading indicator needs one)"#)
    }

    @Test("adjust bounds are checked: min not above max, a positive step, the value inside")
    func adjustBounds() {
        let at = "x.catalog.json:8: screens[0].root.children[0].adjust"
        func error(_ adjust: String) -> String? {
            decodeError(oneScreen(#"{ "id": "stepper", "traits": ["adjustable"], "adjust": \#(adjust) }"#))
        }
        #expect(error(#"{ "min": 10, "max": 1, "value": 5 }"#) == "\(at): min 10.0 is greater than max 1.0")
        #expect(error(#"{ "step": 0 }"#) == "\(at).step: step must be greater than 0")
        #expect(error(#"{ "step": -1 }"#) == "\(at).step: step must be greater than 0")
        #expect(error(#"{ "value": 11, "max": 10 }"#) == "\(at).value: value 11.0 is outside 0.0...10.0")
        #expect(error(#"{ "value": -1 }"#) == "\(at).value: value -1.0 is outside 0.0...100.0")
        #expect(error(#"{ "format": "%@ of %@" }"#) == "\(at).format: a format takes one number (%@), found 2 placeholders")
        #expect(error(#"{ "value": 5, "min": 5, "max": 5 }"#) == nil)
    }

    @Test("a progress value must lie between 0 and 1")
    func progressRange() {
        #expect(decodeError(oneScreen(#"{ "id": "spinner", "progress": { "value": 1.5 } }"#))
            == "x.catalog.json:8: screens[0].root.children[0].progress.value: progress must be between 0 and 1, found 1.5")
        #expect(decodeError(oneScreen(#"{ "id": "spinner", "progress": { "value": 1 } }"#)) == nil)
    }

    @Test("start naming a missing screen is reported at the start field")
    func startMissingScreen() {
        let json = """
            {
              "format": "tandem.catalog/1",
              "start": "nowhere",
              "screens": [{ "id": "main", "root": { "id": "main.root", "label": "Main" } }]
            }
            """
        #expect(decodeError(json) == #"x.catalog.json:3: start: no screen "nowhere""#)
    }

    @Test("a screen's focus must name an element of that screen")
    func focusOnAnotherScreen() {
        let json = """
            {
              "format": "tandem.catalog/1",
              "screens": [
                { "id": "first", "focus": "second.button",
                  "root": { "id": "first.root", "label": "First" } },
                { "id": "second", "focus": "nothing.here",
                  "root": { "id": "second.button", "label": "Second" } }
              ]
            }
            """
        var decoder = CatalogDecoder(file: "x.catalog.json")
        #expect(throws: Diagnostic(file: "x.catalog.json", line: 4, path: "screens[0].focus", message: #"element "second.button" is on another screen"#)) {
            try decoder.decode(Array(json.utf8))
        }
        // Every error is kept, in file order; the first is thrown.
        #expect(decoder.diagnostics.errors.map(\.description) == [
            #"x.catalog.json:4: screens[0].focus: element "second.button" is on another screen"#,
            #"x.catalog.json:6: screens[1].focus: no element "nothing.here""#,
        ])
    }

    @Test("errors found after reading are thrown in file order, not in the order they were checked")
    func errorsInFileOrder() {
        // The duplicate is found while reading, the bad order entry only afterwards.
        let json = oneScreen("""
                { "id": "a", "label": "A" },
                { "id": "list", "order": ["ghost"],
                  "children": [{ "id": "a", "label": "again" }] }
            """)
        var decoder = CatalogDecoder(file: "x.catalog.json")
        #expect(throws: Diagnostic.self) { try decoder.decode(Array(json.utf8)) }
        #expect(decoder.diagnostics.errors.map(\.description) == [
            #"x.catalog.json:9: screens[0].root.children[1].order[0]: no element "ghost""#,
            #"x.catalog.json:10: screens[0].root.children[1].children[0].id: duplicate id "a" (first defined at line 8, screens[0].root.children[0].id)"#,
        ])
    }

    @Test("a localized label's key must exist, in the catalog's language too")
    func localizedKeyMissing() {
        let json = """
            {
              "format": "tandem.catalog/1",
              "language": "pt-BR",
              "strings": { "en": { "only.english": "Hello" } },
              "screens": [{ "id": "main", "root": { "id": "main.root", "children": [
                { "id": "a", "label": { "key": "missing.key" } },
                { "id": "b", "label": { "key": "only.english" } }
              ] } }]
            }
            """
        var decoder = CatalogDecoder(file: "x.catalog.json")
        #expect(throws: Diagnostic.self) { try decoder.decode(Array(json.utf8)) }
        #expect(decoder.diagnostics.errors.map(\.description) == [
            #"x.catalog.json:6: screens[0].root.children[0].label.key: no string "missing.key" in "strings""#,
            #"x.catalog.json:7: screens[0].root.children[1].label.key: string "only.english" has no "pt-BR" text (the catalog's language)"#,
        ])
    }

    @Test("a localized label must give as many arguments as its format takes, in every language")
    func localizedArgumentCount() {
        let json = """
            {
              "format": "tandem.catalog/1",
              "strings": { "en": { "job.cell": "%1$@ at %2$@" }, "pt-BR": { "job.cell": "%1$@" } },
              "screens": [{ "id": "main", "root": { "id": "main.root", "children": [
                { "id": "one.arg", "label": { "key": "job.cell", "args": ["Designer"] } },
                { "id": "two.args", "label": { "key": "job.cell", "args": ["Designer", "Acme"] } }
              ] } }]
            }
            """
        var decoder = CatalogDecoder(file: "x.catalog.json")
        #expect(throws: Diagnostic.self) { try decoder.decode(Array(json.utf8)) }
        #expect(decoder.diagnostics.errors.map(\.description) == [
            #"x.catalog.json:5: screens[0].root.children[0].label.key: string "job.cell" in "en" takes 2 arguments, 1 given"#,
            #"x.catalog.json:6: screens[0].root.children[1].label.key: string "job.cell" in "pt-BR" takes 1 argument, 2 given"#,
        ])
    }

    @Test("a localized label's shape is checked: a key is required, arguments are strings")
    func localizedLabelShape() {
        #expect(decodeError(oneScreen(#"{ "id": "x", "label": { "args": ["a"] } }"#))
            == #"x.catalog.json:8: screens[0].root.children[0].label: missing field "key""#)
        #expect(decodeError(oneScreen(#"{ "id": "x", "label": { "key": "k", "args": [1] } }"#))
            == "x.catalog.json:8: screens[0].root.children[0].label.args[0]: expected a string, found a number")
        #expect(decodeError(#"{"format": "tandem.catalog/1", "strings": {"en": {"k": 1}}, "screens": []}"#)
            == "x.catalog.json:1: strings.en.k: expected a string, found a number")
    }

    @Test("the top-level fields are checked: format, screens, ids, roots")
    func topLevelFields() {
        #expect(decodeError(#"{"screens": []}"#) == #"x.catalog.json:1: missing field "format" (expected "tandem.catalog/1")"#)
        #expect(decodeError("{\n\"format\": \"tandem.catalog/2\", \"screens\": []}")
            == #"x.catalog.json:2: format: unsupported format "tandem.catalog/2" (expected "tandem.catalog/1")"#)
        #expect(decodeError(#"{"format": "tandem.catalog/1"}"#) == #"x.catalog.json:1: missing field "screens""#)
        #expect(decodeError(#"{"format": "tandem.catalog/1", "screens": []}"#) == "x.catalog.json:1: screens: a catalog needs at least one screen")
        #expect(decodeError(#"{"format": "tandem.catalog/1", "screens": [{"root": {"id": "r"}}]}"#) == #"x.catalog.json:1: screens[0]: missing field "id""#)
        #expect(decodeError(#"{"format": "tandem.catalog/1", "screens": [{"id": "s"}]}"#) == #"x.catalog.json:1: screens[0]: missing field "root""#)
        #expect(decodeError(oneScreen(#"{ "label": "no id" }"#)) == #"x.catalog.json:8: screens[0].root.children[0]: missing field "id""#)
        #expect(decodeError(oneScreen(#"{ "id": "" }"#)) == "x.catalog.json:8: screens[0].root.children[0].id: an id must not be empty")
        #expect(decodeError(oneScreen(#"{ "id": "x", "actions": [{ "do": [] }] }"#))
            == #"x.catalog.json:8: screens[0].root.children[0].actions[0]: missing field "name""#)
    }

    @Test("a JSON syntax error is reported with the file and its line but no path")
    func syntaxErrorThroughDecoder() {
        #expect(decodeError("{\n  \"format\": \"tandem.catalog/1\",\n}", file: "broken.catalog.json")
            == "broken.catalog.json:3: unexpected '}', expected a string key")
    }

    @Test("a scenario's posted effect is checked against the catalog and blamed on the scenario's line")
    func postedEffect() throws {
        let catalog = try decodeCatalog(oneScreen(#"{ "id": "x", "label": "X" }"#))
        #expect(throws: Diagnostic(file: "a.scenario", line: 7, path: "post.focus", message: #"no element "ghost""#)) {
            try CatalogDecoder.effect(json: #"{"post": "layoutChanged", "focus": "ghost"}"#, file: "a.scenario", line: 7, catalog: catalog)
        }
        #expect(throws: Diagnostic(file: "a.scenario", line: 3, path: "", message: "unexpected end of file, expected ',' or '}'")) {
            try CatalogDecoder.effect(json: #"{"post": "layoutChanged""#, file: "a.scenario", line: 3, catalog: catalog)
        }
        #expect(throws: Diagnostic(file: "a.scenario", line: 9, path: "post", message: "unknown effect (expected one of: set adjust show hide screen back post load)")) {
            try CatalogDecoder.effect(json: #"{"shake": true}"#, file: "a.scenario", line: 9, catalog: catalog)
        }
        let effect = try CatalogDecoder.effect(json: #"{"post": "announcement", "text": "Hi"}"#, file: "a.scenario", line: 1, catalog: catalog)
        #expect(effect == .announcement(text: "Hi", priority: .default, delay: 0))
    }

    @Test("a diagnostic without a line or a path leaves them out of its description")
    func diagnosticDescription() {
        #expect(Diagnostic(file: "a.json", line: nil, path: "", message: "no such file").description == "a.json: no such file")
        #expect(Diagnostic(file: "a.json", line: 4, path: "", message: "bad").description == "a.json:4: bad")
        #expect(Diagnostic(file: "a.json", line: nil, path: "start", message: "bad").description == "a.json: start: bad")
        #expect(Diagnostic(file: "a.json", line: 4, path: "start", message: "bad").description == "a.json:4: start: bad")
    }
}
