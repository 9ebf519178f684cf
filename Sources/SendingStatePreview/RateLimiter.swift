/// A token bucket: at most `burst` events at once, refilled at `perSecond`.
///
/// ```swift
/// var limiter = RateLimiter(perSecond: 60, burst: 120)
/// limiter.allow(now: .now)   // true until the bucket is empty
/// ```
package struct RateLimiter: Sendable {
  /// Tokens added per second.
  package let perSecond: Double
  /// The bucket's size.
  package let burst: Double
  private var tokens: Double
  private var last: ContinuousClock.Instant?

  /// A full bucket.
  package init(perSecond: Double, burst: Double) {
    self.perSecond = perSecond
    self.burst = burst
    tokens = burst
  }

  /// Takes one token if there is one.
  package mutating func allow(now: ContinuousClock.Instant) -> Bool {
    if let last {
      let elapsed = last.duration(to: now)
      let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      tokens = min(burst, tokens + max(0, seconds) * perSecond)
    }
    last = now
    guard tokens >= 1 else { return false }
    tokens -= 1
    return true
  }
}
