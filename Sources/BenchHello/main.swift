// The reference process for the benchmarks' cold start (B5): a Swift program that loads
// Foundation, does a little work with it and exits. `sendingstate run` is compared with it.
import Foundation

let started = Date()
print("hello \(ISO8601DateFormatter().string(from: started)) \(ProcessInfo.processInfo.processIdentifier)")
