extension LuaRuntime {
  /// Every limit of the Lua host, with its default. `nil` disables a limit that may be disabled.
  ///
  /// An *episode* is one event and everything it causes: the callbacks, every action it
  /// dispatches, each handler, `configure` and the row configures of the commit. Loading a screen
  /// is one episode, and so is each effect result. Outside a screen, each outermost call into
  /// Lua is one.
  ///
  /// | Limit | Default | What happens when it runs out |
  /// |---|---|---|
  /// | ``memoryLimit`` | 64 MiB | memory error naming file:line; nothing is committed |
  /// | ``timeLimit`` | 1 s per episode (wall clock) | time-limit error naming file:line |
  /// | ``instructionBudget`` | none (opt in: units per episode) | budget error naming file:line |
  /// | ``maxStringBytes`` | 16 MiB | memory error naming file:line |
  /// | ``maxDepth`` | 64 nested tables | "too large" error naming the path |
  /// | ``maxNodes`` | 1,000,000 values per crossing | "too large" error naming the path |
  /// | ``maxActionsPerEvent`` | 1,000 | budget error naming the action |
  /// | ``maxEffectDelay`` | 3,600 s | type-mismatch error at the call |
  /// | ``maxFetchBytes`` | 8 MiB | the fetch is aborted; its failure action says why |
  /// | ``maxFetchBodyBytes`` | 256 KiB | error at the `store:fetch` line |
  /// | ``fetchTimeout`` | 30 s | the fetch fails; its failure action says why |
  /// | ``maxViews`` | 10,000 per screen | "too large" error naming the builder's line |
  /// | ``maxRegistrations`` | 10,000 per screen | "too large" error naming the `on` line |
  /// | ``maxEffectBytes`` | 256 KiB per effect | "too large" error at the `store:after`/`store:run` line |
  ///
  /// Library functions that loop in C (patterns, `string.rep`, the `table` functions, `utf8`,
  /// `load`) charge their work in instruction units, so the budget and the time limit hold inside
  /// them too. Values crossing between Swift and Lua are counted *per visit*: a table shared by
  /// two fields counts twice, so shared subtables cannot multiply a copy unnoticed.
  ///
  /// In a sandboxed runtime the time limit costs nothing while a script runs: no Lua hook is
  /// set until the deadline passes (a watch thread then signals the thread running the script,
  /// which stops at its next Lua instruction). A trusted runtime reads the clock from a count
  /// hook instead. An instruction budget makes a script deterministic — it stops at the same
  /// instruction on any machine, which suits tests and fuzzing — but any count hook makes Lua
  /// check for it on every instruction, a third more per tap; so the budget is off by default.
  ///
  /// ```swift
  /// var limits = LuaRuntime.Limits()
  /// limits.timeLimit = .milliseconds(250)
  /// limits.memoryLimit = 16 << 20
  /// let screen = try LuaScreen(path: "screen.lua", options: .init(limits: limits))
  /// ```
  public struct Limits: Sendable, Equatable {
    /// Bytes the state may use while Lua code runs (default 64 MiB).
    public var memoryLimit: Int?
    /// Instruction units one episode may run (default `nil`: none). A budget stops a script at
    /// the same instruction on every machine, at the cost of a check on every instruction.
    public var instructionBudget: Int?
    /// Wall-clock time one episode may take (default 1 second).
    public var timeLimit: Duration?
    /// The longest string a script may build, in bytes (default 16 MiB).
    public var maxStringBytes: Int?
    /// How deeply tables may nest in values that cross the boundary (default 64).
    public var maxDepth: Int
    /// How many values one crossing may visit (default 1,000,000).
    public var maxNodes: Int
    /// How many actions one event may dispatch, queued ones included (default 1,000).
    public var maxActionsPerEvent: Int
    /// The longest delay `store:after` accepts (default one hour).
    public var maxEffectDelay: Duration
    /// The largest body `store:fetch` (and a payload URL) reads; larger responses are aborted
    /// as they stream (default 8 MiB).
    public var maxFetchBytes: Int
    /// The largest body `store:fetch` sends (its `body` option; default 256 KiB). The host keeps
    /// a copy outside the Lua heap until the fetch ends, for up to ``maxPendingEffects``
    /// fetches (by default 25 MiB at most, as for ``maxEffectBytes``). Its headers are bounded
    /// apart: at most ``FetchRequest/maxHeaders``, together ``FetchRequest/maxHeaderBytes`` bytes.
    public var maxFetchBodyBytes: Int
    /// How long a fetch may take (default 30 seconds).
    public var fetchTimeout: Duration
    /// How many bytes `print` and `io.write` may output in one event (default 1 MiB); past it,
    /// the call that would go over is an error.
    public var maxOutputBytes: Int?
    /// How many effects (`store:after`, `store:fetch`) one screen may have running at once
    /// (default 100); one more is an error at the call that starts it.
    public var maxPendingEffects: Int
    /// How many views one screen may build, rows and units included (default 10,000).
    public var maxViews: Int
    /// How many `on(...)` registrations one screen may make (default 10,000).
    public var maxRegistrations: Int
    /// How much data one effect may carry for later — the actions of `store:after`, the input of
    /// `store:run` — counted as string bytes plus 16 per value (default 256 KiB): the host keeps
    /// a copy of it outside the Lua heap until the effect ends, for up to ``maxPendingEffects``
    /// effects.
    public var maxEffectBytes: Int

    /// Creates limits; every argument has the documented default.
    public init(
      memoryLimit: Int? = 64 << 20, instructionBudget: Int? = nil, timeLimit: Duration? = .seconds(1),
      maxStringBytes: Int? = 16 << 20, maxDepth: Int = 64, maxNodes: Int = 1_000_000, maxActionsPerEvent: Int = 1_000,
      maxEffectDelay: Duration = .seconds(3_600), maxFetchBytes: Int = 8 << 20, fetchTimeout: Duration = .seconds(30),
      maxViews: Int = 10_000, maxRegistrations: Int = 10_000, maxPendingEffects: Int = 100,
      maxOutputBytes: Int? = 1 << 20, maxEffectBytes: Int = 256 << 10, maxFetchBodyBytes: Int = 256 << 10
    ) {
      self.memoryLimit = memoryLimit
      self.instructionBudget = instructionBudget
      self.timeLimit = timeLimit
      self.maxStringBytes = maxStringBytes
      self.maxDepth = maxDepth
      self.maxNodes = maxNodes
      self.maxActionsPerEvent = maxActionsPerEvent
      self.maxEffectDelay = maxEffectDelay
      self.maxFetchBytes = maxFetchBytes
      self.maxFetchBodyBytes = maxFetchBodyBytes
      self.fetchTimeout = fetchTimeout
      self.maxViews = maxViews
      self.maxRegistrations = maxRegistrations
      self.maxPendingEffects = maxPendingEffects
      self.maxOutputBytes = maxOutputBytes
      self.maxEffectBytes = maxEffectBytes
    }

    /// No limits at all but the structural ones (depth, nodes): for trusted tooling and benchmarks.
    public static var unlimited: Limits {
      Limits(
        memoryLimit: nil, instructionBudget: nil, timeLimit: nil, maxStringBytes: nil, maxActionsPerEvent: .max,
        maxViews: .max, maxRegistrations: .max, maxPendingEffects: .max, maxOutputBytes: nil, maxEffectBytes: .max)
    }
  }
}

extension Duration {
  /// `1 s`, `0.25 s`: seconds as a person writes them.
  var shortDescription: String {
    let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
    let text = seconds == seconds.rounded() ? String(Int64(seconds)) : String(seconds)
    return text + " s"
  }

  /// The duration in nanoseconds, saturating at `Int64.max`.
  var saturatingNanoseconds: Int64 {
    let (seconds, attoseconds) = components
    guard seconds < Int64.max / 1_000_000_000 else { return .max }
    return max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
  }
}
