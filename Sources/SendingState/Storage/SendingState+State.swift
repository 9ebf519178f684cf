/// Reading, removing and invalidating the bound state of an object with side storage.
extension SendingState where Base: SideStorageProviding {
  /// The state bound to `base` by its last `configure` (or write-back), if it is a `T`.
  ///
  /// Returns `nil` when nothing is bound or the bound value is not a `T`. Works on any object with
  /// side storage, senders included; on a sender, annotate the type:
  ///
  /// ```swift
  /// let model: Product? = button.ss.state()
  /// ```
  public func state<T>() -> T? {
    base.sideStorage.boundState as? T
  }

  /// Clears the bound state of `base` and of its observer.
  ///
  /// Decision (D-10, mirrors upstream): senders keep the state they were given, so state-aware
  /// event mappings still resolve it, and no observer is notified. A class-typed input therefore
  /// stays alive until the senders are reconfigured or released.
  @MainActor
  public func removeState() {
    base.sideStorage.boundState = nil
    base.sideStorage.observer?.state = nil
  }

  /// Transforms the bound state and pushes the result through the whole configure path.
  ///
  /// The new state is stored, the configurer runs again, senders receive it, and observers are
  /// notified, which is how a view writes back into the ``BindingStore`` last applied to it.
  /// Nothing happens (the transform is not called) if the bound state is not a `T`, or if `base`
  /// was never configured through `ss.configure`:
  ///
  /// ```swift
  /// view.ss.invalidateState { (model: Counter) in
  ///   var next = model; next.count += 1; return next
  /// }
  /// ```
  ///
  /// - Parameter transform: builds the new state from the current one.
  @MainActor
  public func invalidateState<T>(_ transform: (T) -> T) {
    guard let observer = base.sideStorage.observer,
      let current = base.sideStorage.boundState as? T
    else { return }
    observer.update(transform(current))
  }
}

extension SendingState where Base: Configurable & SideStorageProviding {
  /// The state bound by the last `configure`, typed as the host's `Input` (no annotation needed).
  ///
  /// ```swift
  /// label.ss.configure("Go")
  /// label.ss.state()   // "Go"
  /// ```
  public func state() -> Base.Input? {
    base.sideStorage.boundState as? Base.Input
  }
}
