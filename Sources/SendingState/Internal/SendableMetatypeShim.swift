#if compiler(<6.2)
  /// Swift 6.1 has no `SendableMetatype` (SE-0470, Swift 6.2): there every metatype may cross,
  /// so the constraint is no constraint. (The reducers' generic types require it from 6.2 on.)
  public typealias SendableMetatype = Any
#endif
