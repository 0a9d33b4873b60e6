import TandemModel
import TandemService
import TandemSession
import TandemTestSupport

/// Catalogs for the braille tests: a panel written here, and the grocery sample.
enum BrailleCatalogs {
    /// A title, a label long enough for three 80-cell windows, two buttons (one announces,
    /// one opens a second screen).
    static let longLabel = "Delivery notes: leave the parcel with the neighbour at number twelve if nobody answers, "
        + "ring twice because the bell is quiet, the side gate is open until eight in the evening, "
        + "and please keep the box upright since it holds six glass jars of homemade plum jam and honey"

    static let panelJSON = """
    {
      "format": "tandem.catalog/1", "name": "Braille panel", "language": "en", "start": "panel",
      "screens": [
        { "id": "panel", "title": "Panel", "focus": "panel.title", "root": { "id": "panel.root", "children": [
          { "id": "panel.title", "label": "Panel", "traits": ["header"] },
          { "id": "notes.text", "label": "\(longLabel)", "traits": ["staticText"] },
          { "id": "save.button", "label": "Save", "traits": ["button"],
            "activate": [{ "post": "announcement", "text": "Saved to your drafts" }] },
          { "id": "details.button", "label": "Details", "traits": ["button"],
            "activate": [{ "screen": "details" }] }
        ] } },
        { "id": "details", "title": "Details", "focus": "details.title", "root": { "id": "details.root", "children": [
          { "id": "details.title", "label": "Order details", "traits": ["header"] }
        ] } }
      ]
    }
    """

    static func panel() throws -> Catalog { try decodeCatalog(panelJSON, file: "panel.catalog.json") }

    /// The grocery sample's catalog and scenario.
    static func grocery() throws -> (Catalog, Scenario) {
        let example = Example("grocery")
        let catalog = try example.catalog()
        return (catalog, try example.scenario(for: catalog))
    }
}
