import CLua
import CLuaShim

/// Owns one `lua_State` and closes it on deinit. Not Sendable: one actor or thread only.
final class LuaStateHandle {
  let pointer: OpaquePointer

  init?(memoryLimit: Int) {
    guard let state = sslua_newstate(memoryLimit, releaseRetainedObject) else { return nil }
    pointer = state
  }

  deinit {
    sslua_close(pointer)
  }
}

/// Releases an object retained into a userdata (the `__gc` path). Called exactly once per object.
func releaseRetainedObject(_ object: UnsafeMutableRawPointer?) {
  guard let object else { return }
  Unmanaged<AnyObject>.fromOpaque(object).release()
}
