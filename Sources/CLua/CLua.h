/*
** CLua: Debian's system Lua 5.4 (liblua5.4-dev), found through pkg-config.
**
** Swift cannot import Lua's function-like macros or its non-literal
** constants, so this header re-expresses the ones the host needs as
** static inline functions and constants under the `sslua_` prefix.
** None of these raise a Lua error: raising work lives in CLuaShim.
*/
#ifndef SENDINGSTATE_CLUA_H
#define SENDINGSTATE_CLUA_H

#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

/* Constants Swift cannot see. */
static const int SSLUA_REGISTRYINDEX = LUA_REGISTRYINDEX;
static const int SSLUA_VERSION_RELEASE_NUM = LUA_VERSION_RELEASE_NUM;

/* Stack manipulation. */
static inline void sslua_pop(lua_State *L, int n) { lua_settop(L, -(n)-1); }
static inline void sslua_insert(lua_State *L, int idx) { lua_rotate(L, idx, 1); }
static inline void sslua_remove(lua_State *L, int idx) {
  lua_rotate(L, idx, -1);
  lua_settop(L, -2);
}
static inline int sslua_upvalueindex(int i) { return LUA_REGISTRYINDEX - i; }

/* Access (stack -> C). */
static inline const char *sslua_tolstring(lua_State *L, int idx, size_t *len) {
  return lua_tolstring(L, idx, len);
}
static inline int sslua_isnoneornil(lua_State *L, int idx) {
  return lua_type(L, idx) <= 0;
}
static inline const char *sslua_typename_at(lua_State *L, int idx) {
  return lua_typename(L, lua_type(L, idx));
}

/* Push (C -> stack). */
static inline void sslua_newtable(lua_State *L) { lua_createtable(L, 0, 0); }
static inline void sslua_pushcfunction(lua_State *L, lua_CFunction f) {
  lua_pushcclosure(L, f, 0);
}
/* t[key] without metamethods, for the host's own tables; `key` a literal, so Lua finds it in
** its string cache by address. (Interning a new key can fail for memory only, as every push.) */
static inline int sslua_rawgetliteral(lua_State *L, int idx, const char *key) {
  idx = lua_absindex(L, idx);
  lua_pushstring(L, key);
  return lua_rawget(L, idx);
}
static inline void sslua_pushglobaltable(lua_State *L) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
}

/* Garbage collection (lua_gc is variadic in 5.4). */
static inline void sslua_gc_collect(lua_State *L) { lua_gc(L, LUA_GCCOLLECT); }
static inline int sslua_gc_count_kb(lua_State *L) { return lua_gc(L, LUA_GCCOUNT); }
static inline int sslua_gc_count_bytes_rem(lua_State *L) {
  return lua_gc(L, LUA_GCCOUNTB);
}

#endif
