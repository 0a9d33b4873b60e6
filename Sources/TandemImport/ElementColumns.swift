/// The reader's elements in document order, one column each, in memory the page's table keeps
/// (`SpanTable`): the reader writes a row as it reads a start tag (and the row's `end` as the
/// element closes), and `PageTree` reads the columns where they are, with no copy and no array
/// checking its uniqueness or bounds on each access.
struct ElementColumns {
    private(set) var capacity = 0
    /// The tag's name: an index into `XMLScanner.tagNames`.
    private(set) var tag = UnsafeMutablePointer<Int32>.allocate(capacity: 0)
    /// Where the start tag is: its line and column (a page source is under 2 GB, so both fit).
    private(set) var line = UnsafeMutablePointer<UInt32>.allocate(capacity: 0)
    private(set) var column = UnsafeMutablePointer<UInt32>.allocate(capacity: 0)
    /// The element it is in (-1 for the root).
    private(set) var parent = UnsafeMutablePointer<Int32>.allocate(capacity: 0)
    /// Its attributes: a range of the page's spans.
    private(set) var attributes = UnsafeMutablePointer<Range<Int32>>.allocate(capacity: 0)
    /// Where the tag's name starts in the file (its end tag is compared with those bytes).
    private(set) var nameStart = UnsafeMutablePointer<UInt32>.allocate(capacity: 0)
    /// `XMLScanner.Row`'s `sameNames`, `copied` and `template`.
    private(set) var sameNames = UnsafeMutablePointer<Bool>.allocate(capacity: 0)
    private(set) var copied = UnsafeMutablePointer<UInt64>.allocate(capacity: 0)
    private(set) var template = UnsafeMutablePointer<Int32>.allocate(capacity: 0)
    /// The first row after the element's subtree (the next row until the element closes).
    private(set) var end = UnsafeMutablePointer<Int32>.allocate(capacity: 0)

    /// Room for `capacity` rows, the first `count` kept.
    mutating func resize(_ capacity: Int, keeping count: Int) {
        func moved<T>(_ p: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<T> {
            let bigger = UnsafeMutablePointer<T>.allocate(capacity: capacity)
            bigger.moveInitialize(from: p, count: count)
            p.deallocate()
            return bigger
        }
        tag = moved(tag); line = moved(line); column = moved(column); parent = moved(parent)
        attributes = moved(attributes); nameStart = moved(nameStart); sameNames = moved(sameNames)
        copied = moved(copied); template = moved(template); end = moved(end)
        self.capacity = capacity
    }

    /// Row `i`, written once (its `end` the next row until `close`).
    @inline(__always)
    func write(_ i: Int, _ row: XMLScanner.Row) {
        tag[i] = row.tag
        line[i] = UInt32(truncatingIfNeeded: row.line)
        column[i] = UInt32(truncatingIfNeeded: row.column)
        parent[i] = Int32(truncatingIfNeeded: row.parent)
        attributes[i] = Int32(truncatingIfNeeded: row.attributes.lowerBound)..<Int32(truncatingIfNeeded: row.attributes.upperBound)
        nameStart[i] = UInt32(truncatingIfNeeded: row.nameStart)
        sameNames[i] = row.sameNames
        copied[i] = row.copied
        template[i] = row.template
        end[i] = Int32(truncatingIfNeeded: i + 1)
    }

    /// Element `i` closed with `next` rows read: its subtree ends there.
    @inline(__always)
    func close(_ i: Int, next: Int) { end[i] = Int32(truncatingIfNeeded: next) }

    func free() {
        tag.deallocate(); line.deallocate(); column.deallocate(); parent.deallocate(); attributes.deallocate()
        nameStart.deallocate(); sameNames.deallocate(); copied.deallocate(); template.deallocate(); end.deallocate()
    }
}
