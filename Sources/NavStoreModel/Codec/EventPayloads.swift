/// The payload of each event type (<doc:Events>), one type each (``EventPayload``): its members
/// and `Codable` form, the bytes the store keeps, their fast read, and the event it records.
/// `Schemas/common.schema.json` describes the same shapes for other tools.
package enum Payload {
    /// `{"name"?, "platform"}`: an absent platform is `ios14` (<doc:PlatformGenerations>); it is
    /// always written.
    package struct SessionStarted: EventPayload {
        package static let keys = ["name", "platform"]
        package var name: String?
        package var platform: PlatformGeneration?
    }

    /// `{"entry"}`.
    package struct EntryPushed: EventPayload {
        package static let keys = ["entry"]
        package var entry: Entry
    }

    /// `{"confirmed"?, "ids", "source"}`: `confirmed` written only when true.
    package struct EntriesPopped: EventPayload {
        package static let keys = ["confirmed", "ids", "source"]
        package var source: PopSource
        package var ids: [String]
        package var confirmed: Bool?
    }

    /// `{"entry", "prompt", "source"}`.
    package struct PopVetoed: EventPayload {
        package static let keys = ["entry", "prompt", "source"]
        package var entry: String
        package var prompt: String
        package var source: PopSource
    }

    /// `{"entries", "observed"?}`, `observed` as `{"layer"?, "reason"}`.
    package struct StackReplaced: EventPayload {
        package static let keys = ["entries", "observed"]
        package var entries: [Entry]
        package var observed: StackObservation?
    }

    /// `{"fields", "id", "item"}`: `fields` always written, read as `[]` when absent or `null`
    /// (payloads written before it existed).
    package struct ItemUpdated: EventPayload {
        package static let keys = ["fields", "id", "item"]
        package var id: String
        package var item: NavigationItem
        package var fields: [String]?
    }

    /// `{"entry", "modalInPresentation"?}`: the flag written only when true.
    package struct LayerPresented: EventPayload {
        package static let keys = ["entry", "modalInPresentation"]
        package var entry: Entry
        package var modalInPresentation: Bool?
    }

    /// `{"ids", "source"}`.
    package struct LayerDismissed: EventPayload {
        package static let keys = ["ids", "source"]
        package var source: DismissSource
        package var ids: [String]
    }

    /// `{"entry", "source"}`.
    package struct DismissVetoed: EventPayload {
        package static let keys = ["entry", "source"]
        package var entry: String
        package var source: DismissSource
    }

    /// The marker's members (``RestoreMarker``'s `Codable` form): `{"acknowledged"?, "attempt"?,
    /// "failedVersions"?, "restoredVersion"?}`, each written only when set; `{}` for a plain restore.
    package struct SessionRestored: EventPayload {
        package static let keys = ["acknowledged", "attempt", "failedVersions", "restoredVersion"]
        package var marker: RestoreMarker
    }

    /// `{"fields", "layer", "modalInPresentation", "navigationBarHidden"}`: every value, and the
    /// fields that changed.
    package struct LayerUpdated: EventPayload {
        package static let keys = ["fields", "layer", "modalInPresentation", "navigationBarHidden"]
        package var layer: Int
        package var navigationBarHidden: Bool
        package var modalInPresentation: Bool
        package var fields: [LayerField]
    }

    /// `{"entry", "source"}`.
    package struct PopCancelled: EventPayload {
        package static let keys = ["entry", "source"]
        package var entry: String
        package var source: PopSource
    }

    /// `{"count", "firstAt", "lastAt"}`, the times in ms since the Unix epoch.
    package struct CallsDropped: EventPayload {
        package static let keys = ["count", "firstAt", "lastAt"]
        package var count: Int
        package var firstAt: Int64
        package var lastAt: Int64
    }

    /// `{"tabs"}`, each tab as ``Tab``'s `Codable` form `{"id", "reselect", "title"?}`.
    package struct TabsReplaced: EventPayload {
        package static let keys = ["tabs"]
        package var tabs: [Tab]
    }

    /// `{"id", "source"}`.
    package struct TabSelected: EventPayload {
        package static let keys = ["id", "source"]
        package var id: String
        package var source: TabSelectionSource
    }

    /// The `"tab"` member of an event recorded in a tab's stack off screen (``EventBody/inTab(_:_:)``).
    package struct InTab: Codable {
        package var tab: String?
    }
}

// MARK: session.started

extension Payload.SessionStarted {
    package static var kind: EventBody.Kind { .sessionStarted }

    package init?(_ body: EventBody) {
        guard case .sessionStarted(let name, let platform) = body else { return nil }
        self.init(name: name, platform: platform)
    }

    package var body: EventBody { .sessionStarted(name: name, platform: platform ?? .default) }

    package static func write(_ event: EventBody, to writer: inout PayloadWriter) {
        guard case .sessionStarted(let name, let platform) = event else { mismatched(event) }
        writer.raw("{")
        if let name {
            writer.key("name", first: true)
            writer.string(name)
        }
        writer.key("platform", first: name == nil)
        writer.string(platform.rawValue)
        writer.raw("}")
    }

    package static func read(from reader: inout PayloadReader) -> EventBody? {
        var name: String?
        var platform = PlatformGeneration.default
        let ok = reader.object(["name", "platform"]) { reader, key in
            if key == 1 {
                guard let value = reader.caseValue(PayloadReader.platforms) else { return false }
                platform = value
                return true
            }
            guard let value = reader.optionalString() else { return false }
            name = value
            return true
        }
        return ok ? .sessionStarted(name: name, platform: platform) : nil
    }
}

// MARK: entry.pushed

extension Payload.EntryPushed {
    package static var kind: EventBody.Kind { .entryPushed }
    package static var carriesTab: Bool { true }

    package init?(_ body: EventBody) {
        guard case .entryPushed(let entry) = body else { return nil }
        self.init(entry: entry)
    }

    package var body: EventBody { .entryPushed(entry) }

    package static func write(_ event: EventBody, to writer: inout PayloadWriter) {
        guard case .entryPushed(let entry) = event else { mismatched(event) }
        writer.raw("{\"entry\":")
        writer.write(entry)
        writer.raw("}")
    }

    package static func read(from reader: inout PayloadReader) -> EventBody? {
        // The hot path of reads: the entry is read in place, its one key matched without a table.
        let (opened, isEmpty) = reader.openObject()
        var entry = Entry(id: "")
        guard opened, !isEmpty, reader.onlyMember("entry"), reader.readEntry(into: &entry), reader.closeObject()
        else { return nil }
        return .entryPushed(entry)
    }
}

// MARK: entries.popped

extension Payload.EntriesPopped {
    package static var kind: EventBody.Kind { .entriesPopped }
    package static var carriesTab: Bool { true }

    package init?(_ body: EventBody) {
        guard case .entriesPopped(let source, let ids, let confirmed) = body else { return nil }
        self.init(source: source, ids: ids, confirmed: confirmed ? true : nil)
    }

    package var body: EventBody { .entriesPopped(source: source, ids: ids, confirmed: confirmed ?? false) }

    package static func write(_ event: EventBody, to writer: inout PayloadWriter) {
        guard case .entriesPopped(let source, let ids, let confirmed) = event else { mismatched(event) }
        writer.raw(confirmed ? "{\"confirmed\":true,\"ids\":" : "{\"ids\":")
        writer.strings(ids)
        writer.raw(",\"source\":")
        writer.string(source.rawValue)
        writer.raw("}")
    }

    package static func read(from reader: inout PayloadReader) -> EventBody? {
        var source: PopSource?
        var ids: [String]?
        var confirmed = false
        let ok = reader.object(["source", "ids", "confirmed"]) { reader, key in
            switch key {
            case 0:
                source = reader.caseValue(PayloadReader.popSources)
                return source != nil
            case 1:
                ids = reader.strings()
                return ids != nil
            default:
                guard let value = reader.optionalFlag() else { return false }
                confirmed = value
                return true
            }
        }
        guard ok, let source, let ids else { return nil }
        return .entriesPopped(source: source, ids: ids, confirmed: confirmed)
    }
}

// MARK: pop.vetoed

extension Payload.PopVetoed {
    package static var kind: EventBody.Kind { .popVetoed }

    package init?(_ body: EventBody) {
        guard case .popVetoed(let entry, let prompt, let source) = body else { return nil }
        self.init(entry: entry, prompt: prompt, source: source)
    }

    package var body: EventBody { .popVetoed(entry: entry, prompt: prompt, source: source) }

    package static func write(_ event: EventBody, to writer: inout PayloadWriter) {
        guard case .popVetoed(let entry, let prompt, let source) = event else { mismatched(event) }
        writer.raw("{\"entry\":")
        writer.string(entry)
        writer.raw(",\"prompt\":")
        writer.string(prompt)
        writer.raw(",\"source\":")
        writer.string(source.rawValue)
        writer.raw("}")
    }

    package static func read(from reader: inout PayloadReader) -> EventBody? {
        var entry: String?
        var prompt: String?
        var source: PopSource?
        let ok = reader.object(["entry", "prompt", "source"]) { reader, key in
            switch key {
            case 0:
                entry = reader.string()
                return entry != nil
            case 1:
                prompt = reader.string()
                return prompt != nil
            default:
                source = reader.caseValue(PayloadReader.popSources)
                return source != nil
            }
        }
        guard ok, let entry, let prompt, let source else { return nil }
        return .popVetoed(entry: entry, prompt: prompt, source: source)
    }
}

// MARK: stack.replaced

extension Payload.StackReplaced {
    package static var kind: EventBody.Kind { .stackReplaced }
    package static var carriesTab: Bool { true }

    package init?(_ body: EventBody) {
        guard case .stackReplaced(let entries, let observed) = body else { return nil }
        self.init(entries: entries, observed: observed)
    }

    package var body: EventBody { .stackReplaced(entries, observed: observed) }

    package static func write(_ event: EventBody, to writer: inout PayloadWriter) {
        guard case .stackReplaced(let entries, let observed) = event else { mismatched(event) }
        writer.raw("{\"entries\":[")
        for (index, entry) in entries.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.write(entry)
        }
        writer.raw("]")
        if let observed {
            writer.raw(",\"observed\":{")
            if let layer = observed.layer {
                writer.raw("\"layer\":")
                writer.integer(layer)
                writer.raw(",")
            }
            writer.raw("\"reason\":")
            writer.string(observed.reason)
            writer.raw("}")
        }
        writer.raw("}")
    }

    package static func read(from reader: inout PayloadReader) -> EventBody? {
        var entries: [Entry]?
        var observed: StackObservation?
        let ok = reader.object(["entries", "observed"]) { reader, key in
            if key == 0 {
                entries = reader.entries()
                return entries != nil
            }
            observed = observation(from: &reader)
            return observed != nil
        }
        guard ok, let entries else { return nil }
        return .stackReplaced(entries, observed: observed)
    }

    /// `{"layer"?, "reason"}` of an observed replacement; `nil` defers.
    private static func observation(from reader: inout PayloadReader) -> StackObservation? {
        var layer: Int?
        var reason: String?
        let ok = reader.object(["layer", "reason"]) { reader, key in
            if key == 0 {
                guard let value = reader.integer(), let index = Int(exactly: value) else { return false }
                layer = index
                return true
            }
            reason = reader.string()
            return reason != nil
        }
        guard ok, let reason else { return nil }
        return StackObservation(reason: reason, layer: layer)
    }
}

// MARK: item.updated

extension Payload.ItemUpdated {
    package static var kind: EventBody.Kind { .itemUpdated }
    package static var carriesTab: Bool { true }

    package init?(_ body: EventBody) {
        guard case .itemUpdated(let id, let item, let fields) = body else { return nil }
        self.init(id: id, item: item, fields: fields)
    }

    package var body: EventBody { .itemUpdated(id: id, item: item, fields: fields ?? []) }

    package static func write(_ event: EventBody, to writer: inout PayloadWriter) {
        guard case .itemUpdated(let id, let item, let fields) = event else { mismatched(event) }
        writer.raw("{\"fields\":")
        writer.strings(fields)
        writer.raw(",\"id\":")
        writer.string(id)
        writer.raw(",\"item\":")
        writer.write(item)
        writer.raw("}")
    }

    package static func read(from reader: inout PayloadReader) -> EventBody? {
        var id: String?
        var item = NavigationItem()
        var hasItem = false
        var fields: [String] = []
        let ok = reader.object(["id", "item", "fields"]) { reader, key in
            switch key {
            case 0:
                id = reader.string()
                return id != nil
            case 1:
                hasItem = reader.readItem(into: &item)
                return hasItem
            default:
                if reader.skipSpaceAndPeek() == UInt8(ascii: "n") {
                    fields = []
                    return reader.literal("null")
                }
                guard let value = reader.strings() else { return false }
                fields = value
                return true
            }
        }
        guard ok, let id, hasItem else { return nil }
        return .itemUpdated(id: id, item: item, fields: fields)
    }
}

// MARK: layer.presented

extension Payload.LayerPresented {
    package static var kind: EventBody.Kind { .layerPresented }

    package init?(_ body: EventBody) {
        guard case .layerPresented(let entry, let modal) = body else { return nil }
        self.init(entry: entry, modalInPresentation: modal ? true : nil)
    }

    package var body: EventBody { .layerPresented(entry, modalInPresentation: modalInPresentation ?? false) }

    package static func write(_ event: EventBody, to writer: inout PayloadWriter) {
        guard case .layerPresented(let entry, let modalInPresentation) = event else { mismatched(event) }
        writer.raw("{\"entry\":")
        writer.write(entry)
        if modalInPresentation { writer.raw(",\"modalInPresentation\":true") }
        writer.raw("}")
    }

    package static func read(from reader: inout PayloadReader) -> EventBody? {
        var entry = Entry(id: "")
        var hasEntry = false
        var modal = false
        let ok = reader.object(["entry", "modalInPresentation"]) { reader, key in
            if key == 0 {
                hasEntry = reader.readEntry(into: &entry)
                return hasEntry
            }
            guard let value = reader.optionalFlag() else { return false }
            modal = value
            return true
        }
        guard ok, hasEntry else { return nil }
        return .layerPresented(entry, modalInPresentation: modal)
    }
}

// MARK: layer.dismissed

extension Payload.LayerDismissed {
    package static var kind: EventBody.Kind { .layerDismissed }

    package init?(_ body: EventBody) {
        guard case .layerDismissed(let source, let ids) = body else { return nil }
        self.init(source: source, ids: ids)
    }

    package var body: EventBody { .layerDismissed(source: source, ids: ids) }

    package static func write(_ event: EventBody, to writer: inout PayloadWriter) {
        guard case .layerDismissed(let source, let ids) = event else { mismatched(event) }
        writer.raw("{\"ids\":")
        writer.strings(ids)
        writer.raw(",\"source\":")
        writer.string(source.rawValue)
        writer.raw("}")
    }

    package static func read(from reader: inout PayloadReader) -> EventBody? {
        var source: DismissSource?
        var ids: [String]?
        let ok = reader.object(["source", "ids"]) { reader, key in
            if key == 0 {
                source = reader.caseValue(PayloadReader.dismissSources)
                return source != nil
            }
            ids = reader.strings()
            return ids != nil
        }
        guard ok, let source, let ids else { return nil }
        return .layerDismissed(source: source, ids: ids)
    }
}

// MARK: dismiss.vetoed

extension Payload.DismissVetoed {
    package static var kind: EventBody.Kind { .dismissVetoed }

    package init?(_ body: EventBody) {
        guard case .dismissVetoed(let entry, let source) = body else { return nil }
        self.init(entry: entry, source: source)
    }

    package var body: EventBody { .dismissVetoed(entry: entry, source: source) }

    package static func write(_ event: EventBody, to writer: inout PayloadWriter) {
        guard case .dismissVetoed(let entry, let source) = event else { mismatched(event) }
        writer.entryAndSource(entry, source.rawValue)
    }

    package static func read(from reader: inout PayloadReader) -> EventBody? {
        reader.entryAndSource(PayloadReader.dismissSources).map { .dismissVetoed(entry: $0.entry, source: $0.source) }
    }
}

// MARK: session.restored

extension Payload.SessionRestored {
    package static var kind: EventBody.Kind { .sessionRestored }

    package init?(_ body: EventBody) {
        guard case .sessionRestored(let marker) = body else { return nil }
        self.init(marker: marker)
    }

    package var body: EventBody { .sessionRestored(marker) }

    /// The marker's own members, not nested under a key.
    package init(from decoder: any Decoder) throws { marker = try RestoreMarker(from: decoder) }

    /// The marker's own members, not nested under a key.
    package func encode(to encoder: any Encoder) throws { try marker.encode(to: encoder) }

    package static func write(_ event: EventBody, to writer: inout PayloadWriter) {
        guard case .sessionRestored(let marker) = event else { mismatched(event) }
        var first = true
        writer.raw("{")
        if marker.acknowledged {
            writer.key("acknowledged", first: first)
            writer.raw("true")
            first = false
        }
        if let attempt = marker.attempt {
            writer.key("attempt", first: first)
            writer.integer(attempt)
            first = false
        }
        if !marker.failedVersions.isEmpty {
            writer.key("failedVersions", first: first)
            writer.raw("[")
            for (index, version) in marker.failedVersions.enumerated() {
                if index > 0 { writer.raw(",") }
                writer.integer(version)
            }
            writer.raw("]")
            first = false
        }
        if let version = marker.restoredVersion {
            writer.key("restoredVersion", first: first)
            writer.integer(version)
        }
        writer.raw("}")
    }

    /// Reads what ``RestoreMarker/init(from:)`` accepts; a value it refuses (a version below 0,
    /// an attempt or a failed version below 1) or a `null` where it reads a number defers, so
    /// that its message is the one given.
    package static func read(from reader: inout PayloadReader) -> EventBody? {
        var marker = RestoreMarker()
        /// An integer at least `minimum`; `nil` defers.
        func count(_ reader: inout PayloadReader, atLeast minimum: Int64) -> Int? {
            guard let value = reader.integer(), value >= minimum else { return nil }
            return Int(exactly: value)
        }
        let ok = reader.object(["acknowledged", "attempt", "failedVersions", "restoredVersion"]) { reader, key in
            switch key {
            case 0:
                guard let value = reader.optionalFlag() else { return false }
                marker.acknowledged = value
            case 1:
                guard let value = count(&reader, atLeast: 1) else { return false }
                marker.attempt = value
            case 2:
                guard let values = reader.array({ count(&$0, atLeast: 1) }) else { return false }
                marker.failedVersions = values
            default:
                guard let value = count(&reader, atLeast: 0) else { return false }
                marker.restoredVersion = value
            }
            return true
        }
        return ok ? .sessionRestored(marker) : nil
    }
}

// MARK: layer.updated

extension Payload.LayerUpdated {
    package static var kind: EventBody.Kind { .layerUpdated }
    package static var carriesTab: Bool { true }

    package init?(_ body: EventBody) {
        guard case .layerUpdated(let layer, let hidden, let modal, let fields) = body else { return nil }
        self.init(layer: layer, navigationBarHidden: hidden, modalInPresentation: modal, fields: fields)
    }

    package var body: EventBody {
        .layerUpdated(
            layer: layer, navigationBarHidden: navigationBarHidden, modalInPresentation: modalInPresentation,
            fields: fields)
    }

    package static func write(_ event: EventBody, to writer: inout PayloadWriter) {
        guard case .layerUpdated(let layer, let navigationBarHidden, let modalInPresentation, let fields) = event else {
            mismatched(event)
        }
        writer.raw("{\"fields\":[")
        for (index, field) in fields.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.string(field.rawValue)
        }
        writer.raw("],\"layer\":")
        writer.integer(layer)
        writer.raw(modalInPresentation ? ",\"modalInPresentation\":true" : ",\"modalInPresentation\":false")
        writer.raw(navigationBarHidden ? ",\"navigationBarHidden\":true}" : ",\"navigationBarHidden\":false}")
    }

    /// Every member required, as `JSONDecoder` reads them; a layer index that is no `Int`, or a
    /// field name that is no ``LayerField``, defers.
    package static func read(from reader: inout PayloadReader) -> EventBody? {
        var layer: Int?
        var hidden: Bool?
        var modal: Bool?
        var fields: [LayerField]?
        let ok = reader.object(["layer", "navigationBarHidden", "modalInPresentation", "fields"]) { reader, key in
            switch key {
            case 0:
                guard let value = reader.integer(), let index = Int(exactly: value) else { return false }
                layer = index
                return true
            case 1:
                hidden = reader.bool()
                return hidden != nil
            case 2:
                modal = reader.bool()
                return modal != nil
            default:
                fields = reader.array { $0.caseValue(PayloadReader.layerFields) }
                return fields != nil
            }
        }
        guard ok, let layer, let hidden, let modal, let fields else { return nil }
        return .layerUpdated(layer: layer, navigationBarHidden: hidden, modalInPresentation: modal, fields: fields)
    }
}

// MARK: pop.cancelled

extension Payload.PopCancelled {
    package static var kind: EventBody.Kind { .popCancelled }

    package init?(_ body: EventBody) {
        guard case .popCancelled(let entry, let source) = body else { return nil }
        self.init(entry: entry, source: source)
    }

    package var body: EventBody { .popCancelled(entry: entry, source: source) }

    package static func write(_ event: EventBody, to writer: inout PayloadWriter) {
        guard case .popCancelled(let entry, let source) = event else { mismatched(event) }
        writer.entryAndSource(entry, source.rawValue)
    }

    package static func read(from reader: inout PayloadReader) -> EventBody? {
        reader.entryAndSource(PayloadReader.popSources).map { .popCancelled(entry: $0.entry, source: $0.source) }
    }
}

// MARK: calls.dropped

extension Payload.CallsDropped {
    package static var kind: EventBody.Kind { .callsDropped }

    package init?(_ body: EventBody) {
        guard case .callsDropped(let count, let firstAt, let lastAt) = body else { return nil }
        self.init(count: count, firstAt: firstAt, lastAt: lastAt)
    }

    package var body: EventBody { .callsDropped(count: count, firstAt: firstAt, lastAt: lastAt) }

    package static func write(_ event: EventBody, to writer: inout PayloadWriter) {
        guard case .callsDropped(let count, let firstAt, let lastAt) = event else { mismatched(event) }
        writer.raw("{\"count\":")
        writer.integer(count)
        writer.raw(",\"firstAt\":")
        writer.integer(firstAt)
        writer.raw(",\"lastAt\":")
        writer.integer(lastAt)
        writer.raw("}")
    }

    package static func read(from reader: inout PayloadReader) -> EventBody? {
        var values: [Int64?] = [nil, nil, nil]
        let ok = reader.object(["count", "firstAt", "lastAt"]) { reader, key in
            values[key] = reader.integer()
            return values[key] != nil
        }
        guard ok, let count = values[0].flatMap({ Int(exactly: $0) }), let firstAt = values[1], let lastAt = values[2]
        else { return nil }
        return .callsDropped(count: count, firstAt: firstAt, lastAt: lastAt)
    }
}

// MARK: tabs.replaced

extension Payload.TabsReplaced {
    package static var kind: EventBody.Kind { .tabsReplaced }

    package init?(_ body: EventBody) {
        guard case .tabsReplaced(let tabs) = body else { return nil }
        self.init(tabs: tabs)
    }

    package var body: EventBody { .tabsReplaced(tabs) }

    package static func write(_ event: EventBody, to writer: inout PayloadWriter) {
        guard case .tabsReplaced(let tabs) = event else { mismatched(event) }
        writer.raw("{\"tabs\":[")
        for (index, tab) in tabs.enumerated() {
            writer.raw(index == 0 ? "{\"id\":" : ",{\"id\":")
            writer.string(tab.id)
            writer.raw(",\"reselect\":")
            writer.string(tab.reselect.rawValue)
            if let title = tab.title {
                writer.raw(",\"title\":")
                writer.string(title)
            }
            writer.raw("}")
        }
        writer.raw("]}")
    }

    package static func read(from reader: inout PayloadReader) -> EventBody? {
        var tabs: [Tab]?
        let ok = reader.object(["tabs"]) { reader, _ in
            tabs = reader.array(tab(from:))
            return tabs != nil
        }
        guard ok, let tabs else { return nil }
        return .tabsReplaced(tabs)
    }

    /// A tab as ``Tab/init(from:)`` reads it (`id` required, `title` `nil` when absent or `null`,
    /// `reselect` ``TabReselect/popToRoot`` when absent); `nil` defers (a `null` reselect among others).
    private static func tab(from reader: inout PayloadReader) -> Tab? {
        var id: String?
        var title: String?
        var reselect = TabReselect.popToRoot
        let ok = reader.object(["id", "reselect", "title"]) { reader, key in
            switch key {
            case 0:
                id = reader.string()
                return id != nil
            case 1:
                guard let value = reader.caseValue(PayloadReader.tabReselects) else { return false }
                reselect = value
                return true
            default:
                guard let value = reader.optionalString() else { return false }
                title = value
                return true
            }
        }
        guard ok, let id else { return nil }
        return Tab(id: id, title: title, reselect: reselect)
    }
}

// MARK: tab.selected

extension Payload.TabSelected {
    package static var kind: EventBody.Kind { .tabSelected }

    package init?(_ body: EventBody) {
        guard case .tabSelected(let id, let source) = body else { return nil }
        self.init(id: id, source: source)
    }

    package var body: EventBody { .tabSelected(id: id, source: source) }

    package static func write(_ event: EventBody, to writer: inout PayloadWriter) {
        guard case .tabSelected(let id, let source) = event else { mismatched(event) }
        writer.raw("{\"id\":")
        writer.string(id)
        writer.raw(",\"source\":")
        writer.string(source.rawValue)
        writer.raw("}")
    }

    package static func read(from reader: inout PayloadReader) -> EventBody? {
        var id: String?
        var source: TabSelectionSource?
        let ok = reader.object(["id", "source"]) { reader, key in
            if key == 0 {
                id = reader.string()
                return id != nil
            }
            source = reader.caseValue(PayloadReader.tabSelectionSources)
            return source != nil
        }
        guard ok, let id, let source else { return nil }
        return .tabSelected(id: id, source: source)
    }
}

// MARK: Shapes two event types share

extension PayloadWriter {
    /// `{"entry":…,"source":…}`: the payload of `pop.cancelled` and `dismiss.vetoed`.
    mutating func entryAndSource(_ entry: String, _ source: String) {
        raw("{\"entry\":")
        string(entry)
        raw(",\"source\":")
        string(source)
        raw("}")
    }
}

extension PayloadReader {
    /// Reads `{"entry", "source"}` (the payload of `pop.cancelled` and `dismiss.vetoed`), the
    /// source one of `sources`; `nil` to hand the payload to the `Codable` reference.
    mutating func entryAndSource<Source>(_ sources: RawValueTable<Source>) -> (entry: String, source: Source)? {
        var entry: String?
        var source: Source?
        let ok = object(["entry", "source"]) { reader, key in
            if key == 0 {
                entry = reader.string()
                return entry != nil
            }
            source = reader.caseValue(sources)
            return source != nil
        }
        guard ok, let entry, let source else { return nil }
        return (entry, source)
    }
}
