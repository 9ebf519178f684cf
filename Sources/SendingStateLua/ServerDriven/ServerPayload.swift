import Foundation
import SendingState

/// One unit of a server-driven payload: its type and its data.
///
/// ```json
/// { "unitType": "product", "data": { "id": "tea", "price": 4.5 } }
/// ```
public struct ServerUnit: ServerStateUnitRepresentable, Sendable, Equatable {
  /// The unit's type name; picks the renderer.
  public var unitType: String
  /// The unit's data: its `data` field, or the unit itself without `unitType` when it has none.
  public var data: LuaValue

  /// Creates a unit.
  public init(unitType: String, data: LuaValue) {
    self.unitType = unitType
    self.data = data
  }

  /// The data, as the core's contract wants it (a ``LuaValue``).
  public var unitData: Any? { data }
}

/// One section of a server-driven payload.
public struct ServerSection: ServerStateSectionRepresentable, Sendable, Equatable {
  /// The section's id, if the server sent one.
  public var sectionId: String?
  /// The section's units, in order.
  public var serverUnits: [ServerUnit]

  /// Creates a section.
  public init(sectionId: String?, units: [ServerUnit]) {
    self.sectionId = sectionId
    self.serverUnits = units
  }

  /// The units, as the core's contract wants them.
  public var units: [any ServerStateUnitRepresentable] { serverUnits }
}

/// A server-driven payload: sections of units, decoded from JSON.
///
/// Accepts `{ "sections": [ { "sectionId": …, "units": [ … ] } ] }`, a bare array of sections,
/// or `[[unit]]` (each inner array a section without id). A unit's type is `unitType` (or
/// `type`); its data is its `data` field, or the unit itself otherwise:
///
/// ```swift
/// let payload = try await ServerPayload.load(from: "examples/shop/payload.json")
/// payload.sections.count
/// ```
public struct ServerPayload: Sendable, Equatable {
  /// The sections, in order.
  public var sections: [ServerSection]

  /// Creates a payload.
  public init(sections: [ServerSection]) {
    self.sections = sections
  }

  /// Decodes JSON within `limits` (size, depth, values); errors name the path
  /// (`payload.sections[2].units[1]: …`) or the line and column of malformed text.
  public init(json data: Data, limits: LuaRuntime.Limits = .init()) throws {
    let value: LuaValue
    do {
      value = try LuaValue(json: data, root: "payload", limits: limits)
    } catch {
      throw error.scriptError
    }
    try self.init(value: value)
  }

  /// Interprets a decoded value.
  public init(value: LuaValue) throws {
    let root = LuaPath(root: "payload")
    let list: [LuaValue]
    var path = root
    if case .table(let table) = value, let sections = table.fields["sections"]?.tableValue {
      list = sections.sequence
      path = root.appending(field: "sections")
    } else if case .table(let table) = value, table.fields.isEmpty {
      list = table.sequence
    } else {
      throw LuaBridgeError(path: root, problem: "expected { sections = [...] } or a list of sections").scriptError
    }
    sections = try list.enumerated().map { offset, item in
      try ServerPayload.section(item, path: path.appending(index: offset + 1))
    }
  }

  private static func section(_ value: LuaValue, path: LuaPath) throws -> ServerSection {
    guard case .table(let table) = value else {
      throw LuaBridgeError(path: path, problem: "expected a section, got \(describe(value))").scriptError
    }
    if table.fields.isEmpty {  // [[unit]]: a section without id
      return ServerSection(
        sectionId: nil,
        units: try table.sequence.enumerated().map { try unit($1, path: path.appending(index: $0 + 1)) })
    }
    let units = table.fields["units"]?.tableValue?.sequence ?? []
    let id = table.fields["sectionId"]?.stringValue ?? table.fields["id"]?.stringValue
    return ServerSection(
      sectionId: id,
      units: try units.enumerated().map { try unit($1, path: path.appending(field: "units").appending(index: $0 + 1)) })
  }

  private static func unit(_ value: LuaValue, path: LuaPath) throws -> ServerUnit {
    guard case .table(var table) = value, let type = (table.fields["unitType"] ?? table.fields["type"])?.stringValue else {
      throw LuaBridgeError(path: path, problem: "a unit needs a string 'unitType'").scriptError
    }
    if let data = table.fields["data"] { return ServerUnit(unitType: type, data: data) }
    table.fields["unitType"] = nil
    table.fields["type"] = nil
    return ServerUnit(unitType: type, data: .table(table))
  }

  /// Loads a payload from a file path or an `http(s)://` URL, within `limits` (body size and
  /// time for URLs; size, depth and values for the JSON).
  public static func load(from source: String, limits: LuaRuntime.Limits = .init()) async throws -> ServerPayload {
    if source.hasPrefix("http://") || source.hasPrefix("https://") {
      guard let url = URL(string: source) else { throw ScreenUsageError.badValue("not a URL: \(source)") }
      let data: Data
      let status: Int
      do {
        (data, status) = try await HTTPGet.fetch(url, maxBytes: limits.maxFetchBytes, timeout: limits.fetchTimeout)
      } catch is CancellationError {
        throw CancellationError()
      } catch {
        throw ScreenUsageError.badValue("\(source): \(error)")
      }
      guard (200..<300).contains(status) else {
        throw ScreenUsageError.badValue("\(source) answered HTTP \(status)")
      }
      return try ServerPayload(json: data, limits: limits)
    }
    let bytes: [UInt8]
    do throws(FileBytes.Refusal) {
      bytes = try FileBytes.read(source, maxBytes: limits.maxStringBytes ?? Int.max, what: "a payload")
    } catch {
      if error.missing { throw ScreenUsageError.missingFile(source) }
      throw ScreenUsageError.badValue("cannot read the payload '\(source)': \(error.reason)")
    }
    return try ServerPayload(json: Data(bytes), limits: limits)
  }
}
