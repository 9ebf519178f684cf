/*
** LuaAuthority.c: who asks for a right.
**
** Every chunk of script code belongs to an owner (the screen, or one plugin): the loader
** registers the chunk's source name ("@path") with its owner before the chunk runs, and a
** chunk a script loads at run time is registered with the owner of the code that loaded it.
** A right (fetching, timers, host tasks, the wall clock, requiring the screen's files) is
** checked against the owner of the code that asks: the nearest frame of script code below
** the gate that was called. That holds however the asking code got hold of the gate: a
** store, an `os` table, a module or a callback handed over by code with other rights asks
** with the rights of whoever calls it.
**
** Why frames can be trusted: gates are C functions, and Lua keeps the frame of a Lua function
** that calls a C function even in a tail call (`return store:fetch(url)` keeps the caller), so
** the caller cannot hide. A tail call into a host Lua function does erase its caller: such a
** host frame found on the way makes the asker unknown, and an unknown asker has no rights.
** Source names cannot be forged: binary chunks are refused, and every chunk a script loads is
** named after the place that loaded it.
*/
#include "LuaShim.h"

#include <string.h>

#include <lua.h>
#include <lauxlib.h>

#include "host.h"

/* Registry keys (their addresses). */
static const char owners_key = 'o';
static const char host_chunks_key = 'h';

/* Pushes the registry table at `key`, creating it. */
static void push_table (lua_State *L, const char *key) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, key) == LUA_TTABLE) return;
  lua_pop(L, 1);
  lua_createtable(L, 0, 8);
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, key);
}

void sslua_set_owner (lua_State *L, const char *source, const char *owner) {
  push_table(L, &owners_key);
  lua_pushstring(L, source);
  if (owner != NULL) lua_pushstring(L, owner); else lua_pushboolean(L, 0);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

void sslua_note_host_chunk (lua_State *L, const char *name) {
  push_table(L, &host_chunks_key);
  lua_pushboolean(L, 1);
  lua_setfield(L, -2, name);
  lua_pop(L, 1);
}

int sslua_is_host_chunk (lua_State *L, const char *name, size_t length) {
  int found;
  push_table(L, &host_chunks_key);
  lua_pushlstring(L, name, length);
  found = lua_rawget(L, -2) == LUA_TBOOLEAN;
  lua_pop(L, 2);
  return found;
}

int sslua_is_script_chunk (lua_State *L, const char *name, size_t length) {
  int found = 0;
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &owners_key) != LUA_TTABLE) {
    lua_pop(L, 1);
    return -1;  /* no chunk was ever registered: not a sandbox */
  }
  if (length > 3 && memcmp(name, "...", 3) == 0) {
    /* Lua shortened a long name to "...tail": a registered source that ends so */
    const char *tail = name + 3;
    size_t tail_length = length - 3;
    lua_pushnil(L);
    while (!found && lua_next(L, -2) != 0) {
      size_t key_length = 0;
      const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tolstring(L, -2, &key_length) : NULL;
      found = key != NULL && key[0] == '@' && key_length - 1 >= tail_length &&
              memcmp(key + key_length - tail_length, tail, tail_length) == 0;
      lua_pop(L, found ? 2 : 1);
    }
  } else {
    lua_pushliteral(L, "@");
    lua_pushlstring(L, name, length);
    lua_concat(L, 2);
    found = lua_rawget(L, -2) != LUA_TNIL;
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return found;
}

/*
** Whether the frame at `level` was called implicitly: as a metamethod (`__index`, `__concat`,
** `__lt`, `__close`…) or as a generic `for`'s iterator. The code
** below it did not name the function it runs, so it cannot be said to ask: a value another
** owner made (a table whose `__pairs` returns `store.fetch, url, types`) would otherwise have
** the screen's `for` loop, or its `..` or `<`, call a gate with arguments of that owner's choice.
*/
static int called_implicitly (lua_State *L, int level) {
  lua_Debug ar;
  if (!lua_getstack(L, level, &ar) || !lua_getinfo(L, "n", &ar) || ar.namewhat == NULL) return 0;
  return strcmp(ar.namewhat, "metamethod") == 0 || strcmp(ar.namewhat, "for iterator") == 0;
}

int sslua_push_asker (lua_State *L, int level) {
  lua_Debug ar;
  /* The gate itself (level - 1) and each frame on the way to the asker must have been called
  ** by name: one reached implicitly leaves the asker unknown. */
  int implicit = level > 0 && called_implicitly(L, level - 1);
  for (; lua_getstack(L, level, &ar); level++) {
    if (!lua_getinfo(L, "St", &ar) || ar.what[0] == 'C') {
      implicit = implicit || called_implicitly(L, level);
      continue;
    }
    if (ar.source[0] == '=') {
      /* The host's own Lua. Called through a tail call, it erased who called it. */
      if (ar.istailcall) {
        lua_pushboolean(L, 0);
        return level;
      }
      implicit = implicit || called_implicitly(L, level);
      continue;
    }
    if (implicit) {
      lua_pushboolean(L, 0);  /* script code that did not call what asks: no rights */
      return level;
    }
    push_table(L, &owners_key);
    lua_pushstring(L, ar.source);
    if (lua_rawget(L, -2) != LUA_TSTRING) {
      lua_pop(L, 2);
      lua_pushboolean(L, 0);  /* script code nobody registered: no rights */
      return level;
    }
    lua_remove(L, -2);
    return level;
  }
  /* No script frame: the host itself asks (unless a metamethod or an iterator called on the
  ** way: the host's own `for` over a script's table); in a coroutine, whoever resumed it cannot
  ** be told from here (`coroutine.wrap(store.fetch)`), so nobody does. */
  lua_pushboolean(L, lua_pushthread(L) && !implicit);
  lua_remove(L, -2);
  return 0;
}

/*
** gate(...): calls the implementation (upvalue 1) as impl(owner, level, ...), where owner is
** who asks (a string, true for the host, false when it cannot be told) and level the asker's
** frame as `debug.getinfo` counts from inside impl (0: none).
*/
static int gate_call (lua_State *L) {
  int n = lua_gettop(L);
  int level = sslua_push_asker(L, 1);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_insert(L, 2);  /* the owner */
  lua_pushinteger(L, level > 0 ? level + 2 : 0);
  lua_insert(L, 3);
  lua_call(L, n + 2, LUA_MULTRET);
  return lua_gettop(L);
}

/*
** boundary(...): calls the implementation (upvalue 1) with the same arguments, as a C frame:
** nothing inside it can yield (a coroutine paused halfway through a store update would finish
** it later, outside its event).
*/
static int boundary_call (lua_State *L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

int sslua_gate_function (lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_settop(L, 1);
  lua_pushcclosure(L, gate_call, 1);
  return 1;
}

int sslua_boundary_function (lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_settop(L, 1);
  lua_pushcclosure(L, boundary_call, 1);
  return 1;
}

int sslua_set_owner_function (lua_State *L) {
  const char *source = luaL_checkstring(L, 1);
  push_table(L, &owners_key);
  lua_pushstring(L, source);
  if (lua_type(L, 2) == LUA_TSTRING) lua_pushvalue(L, 2); else lua_pushboolean(L, 0);
  lua_rawset(L, -3);
  return 0;
}

int sslua_owner_of_function (lua_State *L) {
  const char *source = luaL_checkstring(L, 1);
  push_table(L, &owners_key);
  lua_pushstring(L, source);
  lua_rawget(L, -2);
  return 1;
}

int sslua_source_ending (lua_State *L, const char *tail, char *out, size_t size) {
  size_t length = strlen(tail);
  int found = 0;
  push_table(L, &owners_key);
  lua_pushnil(L);
  while (lua_next(L, -2) != 0) {
    size_t key_length = 0;
    const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tolstring(L, -2, &key_length) : NULL;
    if (key != NULL && key[0] == '@' && key_length - 1 >= length && key_length - 1 < size &&
        memcmp(key + key_length - length, tail, length) == 0) {
      memcpy(out, key + 1, key_length);  /* (with its NUL) */
      found = 1;
      lua_pop(L, 2);
      break;
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);  /* the table */
  return found;
}
