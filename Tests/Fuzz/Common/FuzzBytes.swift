// Shared by every fuzz target (compiled into each by scripts/fuzz.sh; not a package target).
import Foundation

/// Reads a fuzzer's input as a stream of decisions. Past the end every read answers zero, so
/// any input, however short, decodes to something.
struct FuzzBytes {
  private let bytes: [UInt8]
  private(set) var offset = 0

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
    self.bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  }

  var isAtEnd: Bool { offset >= bytes.count }
  var remaining: Int { max(0, bytes.count - offset) }

  mutating func byte() -> UInt8 {
    guard offset < bytes.count else { return 0 }
    defer { offset += 1 }
    return bytes[offset]
  }

  /// A number in `0..<count` (one byte, two when `count` is larger than 256).
  mutating func below(_ count: Int) -> Int {
    guard count > 1 else { return 0 }
    if count <= 256 { return Int(byte()) % count }
    return (Int(byte()) << 8 | Int(byte())) % count
  }

  mutating func bool() -> Bool { byte() & 1 == 1 }

  mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

  mutating func uint64() -> UInt64 {
    var value: UInt64 = 0
    for _ in 0..<8 { value = value << 8 | UInt64(byte()) }
    return value
  }

  /// An integer biased towards the interesting ones: small values, the extremes, powers of two.
  mutating func integer() -> Int64 {
    switch byte() % 8 {
    case 0: return Int64(Int8(bitPattern: byte()))
    case 1: return .max
    case 2: return .min
    case 3: return Int64(1) << Int64(byte() % 63)
    case 4: return -(Int64(1) << Int64(byte() % 63))
    case 5: return Int64(Int16(bitPattern: UInt16(byte()) << 8 | UInt16(byte())))
    default: return Int64(bitPattern: uint64())
    }
  }

  /// A double, finite or not, biased towards the edges.
  mutating func double() -> Double {
    switch byte() % 10 {
    case 0: return .nan
    case 1: return .infinity
    case 2: return -.infinity
    case 3: return -0.0
    case 4: return .greatestFiniteMagnitude
    case 5: return .leastNonzeroMagnitude
    case 6: return Double(Int8(bitPattern: byte())) + 0.5
    case 7: return Double(Int8(bitPattern: byte()))  // integral floats stay floats
    default: return Double(bitPattern: uint64())
    }
  }

  /// A short string: ASCII, multi-byte UTF-8, control characters, NUL, or Lua/JSON syntax.
  mutating func string(maxLength: Int = 12) -> String {
    let length = below(maxLength + 1)
    var scalars = String.UnicodeScalarView()
    for _ in 0..<length {
      let b = byte()
      switch b % 8 {
      case 0: scalars.append(Unicode.Scalar(0))
      case 1: scalars.append(Unicode.Scalar(b >> 3 | 0x01))  // control characters
      case 2: scalars.append(Unicode.Scalar(0xE9))  // é precomposed
      case 3:
        scalars.append(Unicode.Scalar(0x65))
        scalars.append(Unicode.Scalar(0x301 as UInt32)!)  // é decomposed: equal to the above as a Swift String
      case 4: scalars.append(Unicode.Scalar(0x1F375)!)  // 🍵, four UTF-8 bytes
      case 5: scalars.append(Unicode.Scalar(FuzzBytes.syntax[Int(b >> 3) % FuzzBytes.syntax.count]))
      default: scalars.append(Unicode.Scalar(0x61 + (b >> 3) % 26))
      }
    }
    return String(scalars)
  }

  private static let syntax = Array("\"[]{}\\.\n".utf8)

  /// The next `count` bytes (fewer at the end).
  mutating func bytes(_ count: Int) -> [UInt8] {
    let end = min(bytes.count, offset + max(0, count))
    guard offset < end else { return [] }
    defer { offset = end }
    return Array(bytes[offset..<end])
  }

  /// The rest of the input.
  mutating func rest() -> [UInt8] {
    guard offset < bytes.count else { return [] }
    defer { offset = bytes.count }
    return Array(bytes[offset...])
  }
}

/// Whether to print what an input decodes to (`FUZZ_VERBOSE=1`, for reproducing findings).
let fuzzVerbose = ProcessInfo.processInfo.environment["FUZZ_VERBOSE"] != nil

/// Whether inputs that reach known, reported crashes are fuzzed too (`FUZZ_INCLUDE_KNOWN=1`);
/// by default a target steers around them so a run can find the next problem.
let fuzzIncludeKnown = ProcessInfo.processInfo.environment["FUZZ_INCLUDE_KNOWN"] != nil

/// Writes a line to standard error at once (survives a crash).
func fuzzLog(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Reports a broken invariant: libFuzzer records the input as a crash.
func fuzzFail(_ message: String, file: StaticString = #file, line: UInt = #line) -> Never {
  FileHandle.standardError.write(Data("FUZZ INVARIANT BROKEN: \(message)\n".utf8))
  fatalError(message, file: file, line: line)
}

func fuzzCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) {
  if !condition() { fuzzFail(message(), file: file, line: line) }
}
