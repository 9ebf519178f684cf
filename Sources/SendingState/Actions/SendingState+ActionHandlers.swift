/// Adding, removing and assigning action handlers on an ``EventForwardingProvider``.
///
/// ```swift
/// view.ss.addActionHandler(to: handler)      // idempotent per handler
/// view.ss.removeActionHandler(from: handler)
/// view.ss.assignActionHandler(to: other)     // remove all, then add: a sole handler
/// ```
///
/// How it works: registration walks the forwarding tree's (sender, event) keys and installs a
/// control callback or gesture recognizers on each sender. The callbacks live in the **sender's**
/// side storage and hold the view, the sender and the handler weakly, so registering never keeps
/// anything alive. When an event fires, the view's tree is built afresh and its actions for that
/// (sender, event) go to the handler in order; actions of another type are dropped.
///
/// Decisions where upstream is accidental:
/// - Idempotence (D-5): one registration per (sender, event, owner). Adding again installs only
///   what is missing, so a tree that gained senders since the last add gets them.
/// - Duplicates (D-3): two children mapping one (sender, event) share one registration.
/// - Wrong senders (D-2): skipped one by one and reported as ``RegistrationIssue``s.
/// - Owner identity (D-4): compared by weak reference, never by address.
/// - Side effects (D-14): registration evaluates no action closure.
/// - Order (D-16): several handlers on one event receive it in registration order.
extension SendingState where Base: EventForwardingProvider {
  /// Registers `provider` for every mapping of the view's tree.
  ///
  /// - Returns: the mappings that could not be installed (empty when all were).
  @MainActor
  @discardableResult
  public func addActionHandler<Provider: ActionHandlingProvider>(to provider: Provider) -> [RegistrationIssue] {
    // Whether the provider is a main-actor handler is asked once, not at every action.
    let mainActorHandler = provider is any MainActorActionHandler
    return install(owner: provider) { [weak provider] actions in
      for action in actions {
        guard let provider else { return }
        if let typed = action as? Provider.Action {
          if mainActorHandler, let isolated = provider as? any MainActorActionHandler {
            // Events fire on the main actor: a main-actor handler (a reducer store) takes the
            // action synchronously, without the nonisolated hop.
            isolated.handleOnMainActor(typed)
          } else {
            provider.handle(action: typed)
          }
        }
      }
    }
  }

  /// Registers a type-erased handler; the owner is the wrapper itself (D-7).
  @MainActor
  @discardableResult
  public func addAnyActionHandler(to provider: AnyActionHandlingProvider) -> [RegistrationIssue] {
    install(owner: provider) { [weak provider] actions in
      for action in actions {
        provider?.dispatch(action)
      }
    }
  }

  /// Removes `provider`'s registrations from every sender of the tree and from the view itself.
  /// Removing a handler that was never added does nothing.
  @MainActor
  public func removeActionHandler<Provider: ActionHandlingProvider>(from provider: Provider) {
    pools().forEach { $0.remove(owner: provider) }
  }

  /// Removes a type-erased handler's registrations.
  @MainActor
  public func removeAnyActionHandler(from provider: AnyActionHandlingProvider) {
    pools().forEach { $0.remove(owner: provider) }
  }

  /// Removes every registration, whatever its owner, from every sender of the tree and the view.
  @MainActor
  public func removeAllActionHandlers() {
    pools().forEach { $0.removeAll() }
  }

  /// Makes `provider` the sole handler: removes all, then adds it.
  @MainActor
  @discardableResult
  public func assignActionHandler<Provider: ActionHandlingProvider>(to provider: Provider) -> [RegistrationIssue] {
    removeAllActionHandlers()
    return addActionHandler(to: provider)
  }

  /// Makes a type-erased handler the sole handler.
  @MainActor
  @discardableResult
  public func assignAnyActionHandler(to provider: AnyActionHandlingProvider) -> [RegistrationIssue] {
    removeAllActionHandlers()
    return addAnyActionHandler(to: provider)
  }

  // MARK: - Internals

  /// The pools of every sender in the tree and of the view itself (only those that exist).
  @MainActor
  private func pools() -> [EventBoxPool] {
    let objects = uniqueByIdentity(base.eventForwarder.allSenders + [base])
    return objects.compactMap { ($0 as? any SideStorageProviding)?.sideStorage.existingPool }
  }

  @MainActor
  private func install(owner: AnyObject, deliver: @escaping @MainActor ([Any]) -> Void) -> [RegistrationIssue] {
    var issues: [RegistrationIssue] = []
    for key in base.eventForwarder.allEventKeys {
      let sender = key.sender
      let event = key.event
      func skip(_ reason: RegistrationIssue.Reason) {
        issues.append(.init(senderType: "\(type(of: sender))", event: event, reason: reason))
      }
      guard let storable = sender as? any SideStorageProviding else {
        skip(.senderHasNoSideStorage)
        continue
      }
      let pool = storable.sideStorage.pool
      pool.removeDeadOwners()
      if pool.contains(owner: owner, event: event) { continue }
      let fire: @MainActor () -> Void = { [weak base, weak sender, weak owner] in
        guard let base, let sender, owner != nil else { return }
        deliver(base.eventForwarder.actions(for: sender, event: event))
      }
      switch event {
      case .control(let control):
        guard let emitter = sender as? any ControlEventEmitting else {
          skip(.senderIsNotAControl)
          continue
        }
        pool.insert(ControlEventBox(control: emitter, events: control.value, owner: owner, fire: fire))
      case .gesture(let gesture):
        guard let host = sender as? any GestureHosting else {
          skip(.senderIsNotAGestureHost)
          continue
        }
        for kind in gesture.kind.singleKinds {
          let recognizer = host.makeGestureRecognizer(kind: kind, configuredBy: gesture)
          pool.insert(GestureEventBox(view: host, recognizer: recognizer, gesture: gesture, owner: owner, fire: fire))
        }
      }
    }
    return issues
  }
}

/// A handler isolated to the main actor (``ReducerStore``): SendingState's dispatch, which runs
/// on the main actor, hands it actions synchronously.
@MainActor
protocol MainActorActionHandler: AnyObject, Sendable {
  /// Handles an action of the handler's own type (anything else is ignored).
  func handleOnMainActor(_ action: Any)
}
