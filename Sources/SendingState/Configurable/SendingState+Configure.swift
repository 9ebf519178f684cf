/// Configuring a ``Configurable`` object.
extension SendingState where Base: Configurable {
  /// Binds `input` to the object and runs its configurer, synchronously.
  ///
  /// For an object with side storage this runs, in order: the observer's state is set; the
  /// object's bound state is set (so `ss.state()` inside the configurer already returns `input`);
  /// the configurer runs; every sender named in the object's `eventForwarder` tree (if it is an
  /// ``EventForwardingProvider``) receives `input` as its state; internal observers are notified
  /// in registration order. An object without side storage only runs its configurer.
  ///
  /// ```swift
  /// view.ss.configure(Product(title: "Tea", count: 1))
  /// ```
  ///
  /// - Parameter input: the new state.
  @MainActor
  public func configure(_ input: Base.Input) {
    guard let storable = base as? any SideStorageProviding else {
      base.configurer(base, input)
      return
    }
    let observer = storable.sideStorage.installObserver {
      StateObserver(binder: base)
    }
    observer.update(input)
  }
}
