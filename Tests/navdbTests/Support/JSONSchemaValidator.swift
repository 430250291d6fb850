import Foundation
import NavStore
import NavStoreTools

/// A validator for the subset of JSON Schema (draft 2020-12 keywords) that `Schemas/*.schema.json`
/// use: `type` (a name or a list), `properties`, `required`, `additionalProperties` (a boolean or
/// a schema), `items`, `enum`, `const`, `minimum`, `pattern` (a Swift regex), `$defs` and `$ref`
/// (`#/$defs/name` within a file, `file.schema.json#/$defs/name` across files). A keyword it does
/// not know fails the validation, so a schema never silently checks less than it says.
struct JSONSchemaValidator {
    /// Every schema file by name (`event.schema.json`).
    let schemas: [String: JSONValue]

    /// Loads every `*.schema.json` in `folder`.
    init(folder: URL) throws {
        var schemas: [String: JSONValue] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path)
        where file.hasSuffix(".schema.json") {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            schemas[file] = try JSONDecoder().decode(JSONValue.self, from: data)
        }
        self.schemas = schemas
    }

    static let known: Set<String> = [
        "$schema", "$id", "$defs", "$ref", "title", "description", "type", "properties", "required",
        "additionalProperties", "items", "enum", "const", "minimum", "pattern", "oneOf",
    ]

    /// Keywords of schema file `name` (at any depth) this validator does not implement.
    func unsupportedKeywords(in name: String) -> [String] {
        var found: [String] = []
        func walk(_ node: JSONValue, _ path: String) {
            guard case .object(let s) = node else { return }
            for key in s.keys.sorted() where !Self.known.contains(key) { found.append("\(path).\(key)") }
            for container in ["properties", "$defs"] {
                if case .object(let members)? = s[container] {
                    for (key, member) in members { walk(member, "\(path).\(container).\(key)") }
                }
            }
            if let items = s["items"] { walk(items, path + ".items") }
            if case .array(let options)? = s["oneOf"] {
                for (index, option) in options.enumerated() { walk(option, "\(path).oneOf[\(index)]") }
            }
            if let additional = s["additionalProperties"] { walk(additional, path + ".additionalProperties") }
        }
        if let schema = schemas[name] { walk(schema, name) }
        return found
    }

    /// The problems of `value` against the schema file `name`; empty when it validates.
    func problems(_ value: JSONValue, against name: String) -> [String] {
        guard let schema = schemas[name] else { return ["no schema \(name)"] }
        var problems: [String] = []
        check(value, schema, file: name, path: "$", into: &problems)
        return problems
    }

    private func resolve(_ reference: String, from file: String) -> (JSONValue, String)? {
        let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let target = parts[0].isEmpty ? file : parts[0]
        guard var node = schemas[target] else { return nil }
        if parts.count > 1 {
            for key in parts[1].split(separator: "/") {
                guard case .object(let object) = node, let next = object[String(key)] else { return nil }
                node = next
            }
        }
        return (node, target)
    }

    private static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .integer: "integer"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    private func check(
        _ value: JSONValue, _ schema: JSONValue, file: String, path: String, into problems: inout [String]
    ) {
        guard case .object(let s) = schema else {
            if case .bool(false) = schema { problems.append("\(path): not allowed") }
            return
        }
        for key in s.keys where !Self.known.contains(key) {
            problems.append("\(file): unsupported keyword \(key) at \(path)")
        }
        if case .string(let reference)? = s["$ref"] {
            guard let (target, targetFile) = resolve(reference, from: file) else {
                problems.append("\(path): unresolvable $ref \(reference)")
                return
            }
            check(value, target, file: targetFile, path: path, into: &problems)
        }
        if case .array(let options)? = s["oneOf"] {
            // Exactly one alternative validates (draft 2020-12 `oneOf`).
            var passing = 0
            var first: [String] = []
            for option in options {
                var found: [String] = []
                check(value, option, file: file, path: path, into: &found)
                if found.isEmpty { passing += 1 } else if first.isEmpty { first = found }
            }
            if passing != 1 {
                problems.append(
                    "\(path): \(passing) of the oneOf alternatives validate, where exactly 1 must"
                        + (first.isEmpty ? "" : " (first problem: \(first[0]))"))
            }
        }
        if let type = s["type"] {
            var names: [String] = []
            if case .string(let name) = type { names = [name] }
            if case .array(let list) = type {
                names = list.compactMap { if case .string(let n) = $0 { n } else { nil } }
            }
            let actual = Self.typeName(value)
            let matches = names.contains(actual) || (actual == "integer" && names.contains("number"))
            if !matches {
                problems.append("\(path): \(actual) where \(names.joined(separator: " or ")) is expected")
                return
            }
        }
        if case .array(let options)? = s["enum"], !options.contains(value) {
            problems.append("\(path): \(value) is not one of the schema's enum")
        }
        if let constant = s["const"], constant != value { problems.append("\(path): \(value) is not \(constant)") }
        if let minimum = s["minimum"] {
            let limit: Double? =
                switch minimum {
                case .integer(let i): Double(i)
                case .number(let d): d
                default: nil
                }
            let actual: Double? =
                switch value {
                case .integer(let i): Double(i)
                case .number(let d): d
                default: nil
                }
            if let limit, let actual, actual < limit {
                problems.append("\(path): \(actual) is below the minimum \(limit)")
            }
        }
        if case .string(let pattern)? = s["pattern"], case .string(let text) = value {
            if let regex = try? Regex(pattern) {
                if (try? regex.firstMatch(in: text)) == nil {
                    problems.append("\(path): '\(text)' does not match \(pattern)")
                }
            } else {
                problems.append("\(file): bad pattern \(pattern)")
            }
        }
        if case .object(let object) = value {
            var properties: [String: JSONValue] = [:]
            if case .object(let p)? = s["properties"] { properties = p }
            if case .array(let required)? = s["required"] {
                for case .string(let key) in required where object[key] == nil {
                    problems.append("\(path): missing key '\(key)'")
                }
            }
            for (key, member) in object {
                if let sub = properties[key] {
                    check(member, sub, file: file, path: path + "." + key, into: &problems)
                } else if let additional = s["additionalProperties"] {
                    if case .bool(false) = additional {
                        problems.append("\(path): key '\(key)' is not in the schema")
                    } else {
                        check(member, additional, file: file, path: path + "." + key, into: &problems)
                    }
                }
            }
        }
        if case .array(let elements) = value, let items = s["items"] {
            for (index, element) in elements.enumerated() {
                check(element, items, file: file, path: path + "[\(index)]", into: &problems)
            }
        }
    }
}
