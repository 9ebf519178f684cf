import Foundation

/// A JSON parser that builds data directly, in one pass, checking the host's limits as it reads.
///
/// Why our own: decoding through `JSONDecoder` and `Decodable` probes every value as each
/// type in turn, and each failed probe builds an error carrying the whole coding path, so the
/// cost grew with the depth of every value — a 6 MB body within every limit took 95 s. This
/// reader is linear in the input; it counts nesting and values as it goes, names the line and
/// column of a syntax error, reads whole numbers as Lua integers (`1`, `1.0` and `1e0` alike;
/// others are floats) and refuses what would silently lose data: a key given twice (also
/// when the two spellings are the same text in different Unicode forms, which Swift strings
/// treat as one key), a number too big for a float.
///
/// Follows RFC 8259: any value at the top level, UTF-8 text (a leading byte-order mark is
/// skipped), `\u` escapes with surrogate pairs. `null` in an object leaves the field out; in
/// an array it is a `nil` element.
struct JSONReader {
  private let bytes: [UInt8]
  private let root: String
  private let maxDepth: Int
  private let maxNodes: Int
  private var position = 0
  private var nodes = 0
  private var trail: [LuaPath.Component] = []

  /// Reads all of `data` as one JSON value.
  static func read(_ data: Data, root: String, maxDepth: Int, maxNodes: Int) throws(LuaBridgeError) -> LuaValue {
    var reader = JSONReader(bytes: [UInt8](data), root: root, maxDepth: maxDepth, maxNodes: maxNodes)
    if reader.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.position = 3 }
    let value = try reader.value(depth: 0)
    reader.skipSpace()
    guard reader.position == reader.bytes.count else {
      throw reader.syntax("more text after the value")
    }
    return value
  }

  private init(bytes: [UInt8], root: String, maxDepth: Int, maxNodes: Int) {
    self.bytes = bytes
    self.root = root
    self.maxDepth = maxDepth
    self.maxNodes = maxNodes
  }

  private var path: LuaPath { LuaPath(root: root, components: trail) }

  // MARK: - Values

  private mutating func value(depth: Int) throws(LuaBridgeError) -> LuaValue {
    nodes += 1
    guard nodes <= maxNodes else { throw LuaBridgeError.tooLarge(path, "more than \(maxNodes) values") }
    skipSpace()
    guard position < bytes.count else { throw syntax("a value is missing") }
    switch bytes[position] {
    case UInt8(ascii: "{"): return try object(depth: depth + 1)
    case UInt8(ascii: "["): return try array(depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): try literal("true"); return .boolean(true)
    case UInt8(ascii: "f"): try literal("false"); return .boolean(false)
    case UInt8(ascii: "n"): try literal("null"); return .nil
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default: throw syntax("unexpected \(describeByte(at: position)) where a value should be")
    }
  }

  private func enter(depth: Int) throws(LuaBridgeError) {
    guard depth <= maxDepth else { throw LuaBridgeError.tooLarge(path, "nested deeper than \(maxDepth)") }
  }

  private mutating func array(depth: Int) throws(LuaBridgeError) -> LuaValue {
    try enter(depth: depth)
    position += 1  // [
    var elements: [LuaValue] = []
    skipSpace()
    if try consume(UInt8(ascii: "]")) { return .table(LuaTable(sequence: elements)) }
    while true {
      trail.append(.index(elements.count + 1))
      elements.append(try value(depth: depth))
      trail.removeLast()
      skipSpace()
      if try consume(UInt8(ascii: ",")) { continue }
      if try consume(UInt8(ascii: "]")) { return .table(LuaTable(sequence: elements)) }
      throw syntax("expected ',' or ']' after an array element, found \(describeByte(at: position))")
    }
  }

  private mutating func object(depth: Int) throws(LuaBridgeError) -> LuaValue {
    try enter(depth: depth)
    position += 1  // {
    var fields: [String: LuaValue] = [:]
    // Every key of the object, as bytes (what Lua compares) and as text (what Swift compares).
    var keyBytes: Set<[UInt8]> = []
    var keyTexts: Set<String> = []
    skipSpace()
    if try consume(UInt8(ascii: "}")) { return .table(LuaTable(fields: fields)) }
    while true {
      skipSpace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
        throw syntax("expected a key in double quotes, found \(describeByte(at: position))")
      }
      let keyStart = position
      let key = try string()
      guard keyBytes.insert(Array(key.utf8)).inserted else {
        throw syntax("the key \"\(key)\" appears twice in one object", at: keyStart)
      }
      guard keyTexts.insert(key).inserted else {
        throw syntax(
          "the key \"\(key)\" is the same text as another key of this object in a different Unicode form (write both the same way)",
          at: keyStart)
      }
      skipSpace()
      guard try consume(UInt8(ascii: ":")) else {
        throw syntax("expected ':' after the key \"\(key)\", found \(describeByte(at: position))")
      }
      trail.append(.field(key))
      let element = try value(depth: depth)
      trail.removeLast()
      // `null` leaves the field out: Lua tables have no nil fields.
      if element != .nil { fields[key] = element }
      skipSpace()
      if try consume(UInt8(ascii: ",")) { continue }
      if try consume(UInt8(ascii: "}")) { return .table(LuaTable(fields: fields)) }
      throw syntax("expected ',' or '}' after an object field, found \(describeByte(at: position))")
    }
  }

  private mutating func literal(_ word: String) throws(LuaBridgeError) {
    let count = word.utf8.count
    guard position + count <= bytes.count, bytes[position..<position + count].elementsEqual(word.utf8) else {
      throw syntax("unexpected \(describeByte(at: position)) where a value should be")
    }
    position += count
  }

  private mutating func number() throws(LuaBridgeError) -> LuaValue {
    let start = position
    var isInteger = true
    if bytes[position] == UInt8(ascii: "-") { position += 1 }
    guard position < bytes.count, isDigit(bytes[position]) else {
      throw syntax("a number needs a digit after '-'")
    }
    if bytes[position] == UInt8(ascii: "0") {
      position += 1
      if position < bytes.count, isDigit(bytes[position]) {
        throw syntax("a number cannot start with 0 (write 7, not 07)", at: start)
      }
    } else {
      while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      isInteger = false
      position += 1
      guard position < bytes.count, isDigit(bytes[position]) else { throw syntax("a number needs digits after '.'") }
      while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }
    if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
      isInteger = false
      position += 1
      if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
        position += 1
      }
      guard position < bytes.count, isDigit(bytes[position]) else {
        throw syntax("a number needs digits in its exponent")
      }
      while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }
    let text = String(decoding: bytes[start..<position], as: UTF8.self)
    if isInteger, let integer = Int64(text) { return .integer(integer) }
    guard let number = Double(text), number.isFinite else {
      throw LuaBridgeError(path: path, problem: "the number \(text) is too big (numbers must be finite)")
    }
    // JSON has one kind of number: a whole one is an integer however it is written (`2.0`,
    // `2e0`), so writers that print 2.0 and writers that print 2 mean the same to a script,
    // and a value written back out (as `2`) reads back unchanged.
    if let integer = Int64(exactly: number) { return .integer(integer) }
    return .number(number)
  }

  private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  // MARK: - Strings

  private mutating func string() throws(LuaBridgeError) -> String {
    let start = position
    position += 1  // "
    var buffer: [UInt8] = []
    var runStart = position
    while true {
      guard position < bytes.count else { throw syntax("a string is not closed (a '\"' is missing)", at: start) }
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        buffer.append(contentsOf: bytes[runStart..<position])
        position += 1
        break
      }
      if byte < 0x20 {
        throw syntax("a control character inside a string (write \\n, \\t or \\u00XX)")
      }
      if byte == UInt8(ascii: "\\") {
        buffer.append(contentsOf: bytes[runStart..<position])
        try escape(into: &buffer)
        runStart = position
        continue
      }
      position += 1
    }
    guard let text = String(validating: buffer, as: UTF8.self) else {
      throw syntax("a string is not valid UTF-8", at: start)
    }
    return text
  }

  private mutating func escape(into buffer: inout [UInt8]) throws(LuaBridgeError) {
    let start = position
    position += 1  // backslash
    guard position < bytes.count else { throw syntax("the text ends inside an escape") }
    let byte = bytes[position]
    position += 1
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(byte)
    case UInt8(ascii: "b"): buffer.append(0x08)
    case UInt8(ascii: "f"): buffer.append(0x0C)
    case UInt8(ascii: "n"): buffer.append(0x0A)
    case UInt8(ascii: "r"): buffer.append(0x0D)
    case UInt8(ascii: "t"): buffer.append(0x09)
    case UInt8(ascii: "u"):
      var scalar = try hex4(escapeStart: start)
      if (0xD800..<0xDC00).contains(scalar) {
        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
          throw syntax("a \\u escape is half of a surrogate pair without its other half", at: start)
        }
        position += 2
        let low = try hex4(escapeStart: start)
        guard (0xDC00..<0xE000).contains(low) else {
          throw syntax("a \\u escape is half of a surrogate pair without its other half", at: start)
        }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      } else if (0xDC00..<0xE000).contains(scalar) {
        throw syntax("a \\u escape is half of a surrogate pair without its other half", at: start)
      }
      buffer.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
    default:
      throw syntax("unknown escape '\\\(Character(Unicode.Scalar(byte)))' in a string", at: start)
    }
  }

  private mutating func hex4(escapeStart: Int) throws(LuaBridgeError) -> UInt32 {
    guard position + 4 <= bytes.count else { throw syntax("a \\u escape needs four hex digits", at: escapeStart) }
    var scalar: UInt32 = 0
    for byte in bytes[position..<position + 4] {
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw syntax("a \\u escape needs four hex digits", at: escapeStart)
      }
      scalar = scalar << 4 | UInt32(digit)
    }
    position += 4
    return scalar
  }

  // MARK: - Text

  private mutating func skipSpace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D: position += 1
      default: return
      }
    }
  }

  private mutating func consume(_ byte: UInt8) throws(LuaBridgeError) -> Bool {
    guard position < bytes.count, bytes[position] == byte else { return false }
    position += 1
    return true
  }

  private func describeByte(at offset: Int) -> String {
    guard offset < bytes.count else { return "the end of the text" }
    let byte = bytes[offset]
    if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    if byte == 0x20 { return "a space" }
    return String(format: "the byte 0x%02X", byte)
  }

  /// A syntax error at `offset` (the current position unless given): its line and column, or
  /// "at the end" when the text stops early.
  private func syntax(_ problem: String, at offset: Int? = nil) -> LuaBridgeError {
    let offset = offset ?? position
    let (line, column) = Self.position(of: offset, in: bytes)
    let place =
      offset >= bytes.count
      ? "at the end (line \(line), column \(column)): the text ends too early (\(problem))"
      : "at line \(line), column \(column): \(problem)"
    return LuaBridgeError(path: LuaPath(root: root), problem: "not valid JSON \(place)")
  }

  /// The 1-based line and column of byte `offset` (columns count characters, not bytes).
  static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
    var line = 1
    var column = 1
    for byte in bytes.prefix(max(0, offset)) {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {  // not a UTF-8 continuation byte
        column += 1
      }
    }
    return (line, column)
  }
}
