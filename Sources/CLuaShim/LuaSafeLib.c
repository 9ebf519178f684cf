/*
** CLuaShim: the bounded library of sandboxes.
**
** The count hook sees VM instructions only. Standard functions that loop in
** C (over a range a script chooses, or over values metamethods produce) are
** replaced here by versions that charge their work to the episode first, so
** the budget and the deadline bound them like any Lua loop. Three standard
** functions read `#t` and then loop; they are written anew (insert, remove,
** sort) because a lying __len could answer differently to a second call.
*/
#include <limits.h>
#include <string.h>

#include <lua.h>
#include <lauxlib.h>

#include "host.h"

#define VIOLATION "sandbox violation: "


/*
** {======================================================
** xpcall: message handlers stop at a limit
** =======================================================
*/

/*
** The handler xpcall installs: calls the script's handler (upvalue 1),
** protected, unless a limit has run out, in which case the limit's error
** stands. An error inside the script's handler replaces the message.
*/
static int bounded_msgh (lua_State *L) {
  Host *h = sslua_gethost(L);
  if (h->tripped != SSLUA_TRIP_NONE)
    return 1;
  lua_settop(L, 1);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_pcall(L, 1, 1, 0);
  return 1;
}

static int finish_xpcall (lua_State *L, int status, lua_KContext extra) {
  if (status != LUA_OK && status != LUA_YIELD) {
    lua_pushboolean(L, 0);
    lua_pushvalue(L, -2);
    return 2;
  }
  return lua_gettop(L) - (int)extra;
}

static int safe_xpcall (lua_State *L) {
  int n = lua_gettop(L);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_pushvalue(L, 2);
  lua_pushcclosure(L, bounded_msgh, 1);
  lua_replace(L, 2);  /* f, handler, args... */
  lua_pushboolean(L, 1);
  lua_pushvalue(L, 1);
  lua_rotate(L, 3, 2);  /* f, handler, true, f, args... */
  return finish_xpcall(L, lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, finish_xpcall), 2);
}

/* }====================================================== */


/*
** {======================================================
** setmetatable without finalizers
** =======================================================
*/

/*
** Lua runs __gc with hooks off, so a finalizer could loop for ever, even at
** close. Sandboxes (like Luau's) do not have them.
*/
static int safe_setmetatable (lua_State *L) {
  int t = lua_type(L, 2);
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
  if (t == LUA_TTABLE) {
    lua_pushliteral(L, "__gc");
    if (lua_rawget(L, 2) != LUA_TNIL)
      return luaL_error(L, VIOLATION "__gc finalizers are not available to scripts "
                        "(release resources explicitly)");
    lua_pop(L, 1);
  }
  if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL)
    return luaL_error(L, "cannot change a protected metatable");
  lua_settop(L, 2);
  lua_setmetatable(L, 1);
  return 1;
}

/* }====================================================== */


/*
** {======================================================
** Coroutines that keep the limits
** =======================================================
*/

int sslua_coroutine_create (lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_State *co = lua_newthread(L);
  sslua_arm_hook(co, sslua_gethost(L));
  lua_pushvalue(L, 1);
  lua_xmove(L, co, 1);
  return 1;
}

/* Whether `co` can be resumed; otherwise pushes why not. */
static int resumable (lua_State *L, lua_State *co) {
  lua_Debug ar;
  if (co == L) {
    lua_pushliteral(L, "cannot resume non-suspended coroutine");
    return 0;
  }
  switch (lua_status(co)) {
    case LUA_YIELD:
      return 1;
    case LUA_OK:
      if (lua_getstack(co, 0, &ar)) {  /* it has frames: it resumed another */
        lua_pushliteral(L, "cannot resume non-suspended coroutine");
        return 0;
      }
      if (lua_gettop(co) == 0) {  /* nothing to run: finished */
        lua_pushliteral(L, "cannot resume dead coroutine");
        return 0;
      }
      return 1;
    default:  /* it ended with an error */
      lua_pushliteral(L, "cannot resume dead coroutine");
      return 0;
  }
}

/*
** lua_resetthread runs the thread's pending __close handlers, which may close another thread in
** turn; Lua 5.4.4 does not count that as a C call, so a chain of them could overflow the C
** stack. Resets nest at most this deep, then fail as a C stack overflow.
*/
#define MAX_RESETS 100

/* Resets `co` (as lua_resetthread); -1, doing nothing, when resets nest too deep. */
static int reset_thread (Host *h, lua_State *co) {
  int status;
  if (h->resets >= MAX_RESETS) return -1;
  h->resets++;
  status = lua_resetthread(co);
  h->resets--;
  return status;
}

/* Raises the error of resets nested too deep (the running thread is put back first). */
static int raise_deep_resets (lua_State *L, Host *h, lua_State *saved) {
  h->running = saved;
  return luaL_error(L, "C stack overflow (coroutines closing one another nest deeper than %d)", MAX_RESETS);
}

/*
** coroutine.resume: the resumed thread is what runs now (for the position of
** a memory error) and gets the episode's hook before it runs. A limit that
** runs out inside it is raised in the resumer, not returned.
*/
static int safe_resume (lua_State *L) {
  lua_State *co = lua_tothread(L, 1);
  Host *h = sslua_gethost(L);
  int nargs = lua_gettop(L) - 1;
  int status, nres;
  lua_State *saved;
  luaL_argexpected(L, co != NULL, 1, "thread");
  if (!resumable(L, co)) {
    lua_pushboolean(L, 0);
    lua_insert(L, -2);
    return 2;
  }
  if (!lua_checkstack(co, nargs)) {
    lua_pushboolean(L, 0);
    lua_pushliteral(L, "too many arguments to resume");
    return 2;
  }
  lua_xmove(L, co, nargs);
  sslua_arm_hook(co, h);
  saved = h->running;
  h->running = co;
  status = lua_resume(co, L, nargs, &nres);
  if (status == LUA_OK || status == LUA_YIELD) {
    h->running = saved;
    if (!lua_checkstack(L, nres + 1)) {
      lua_pop(co, nres);
      lua_pushboolean(L, 0);
      lua_pushliteral(L, "too many results to resume");
      return 2;
    }
    lua_pushboolean(L, 1);
    lua_xmove(co, L, nres);
    return nres + 1;
  }
  if (h->tripped != SSLUA_TRIP_NONE && status != LUA_ERRMEM) {
    /* A limit ran out inside the coroutine: it is the episode's, not the
    ** coroutine's, so it is not resume's to swallow. The resumer's next
    ** instruction raises again (as after a pcall), and the error goes on now,
    ** naming the coroutine's line. */
    lua_xmove(co, L, 1);
    if (reset_thread(h, co) < 0) return raise_deep_resets(L, h, saved);
    lua_settop(co, 0);
    h->running = saved;
    sslua_trip(L, h, h->tripped);
    return lua_error(L);
  }
  lua_pushboolean(L, 0);
  lua_xmove(co, L, 1);  /* the error */
  /* A coroutine that failed can never run again; release its stack now (as
  ** Lua's coroutine.wrap does), so a memory error inside it frees what it held. */
  if (status == LUA_ERRMEM)  /* before the reset, whose allocations may be refused too */
    sslua_describe_memory_error(L, h);
  /* The reset runs the coroutine's pending __close handlers on it: it is still what runs (the
  ** watch stops the thread that runs), under the episode's hook. */
  sslua_arm_hook(co, h);
  if (reset_thread(h, co) < 0) return raise_deep_resets(L, h, saved);
  lua_settop(co, 0);  /* dead: nothing left to run */
  h->running = saved;
  if (h->tripped != SSLUA_TRIP_NONE) {  /* a limit ran out in a __close handler */
    sslua_trip(L, h, h->tripped);
    return sslua_raise_trip(L, h, 1);
  }
  return 2;
}

/* Names of a coroutine's states, as Lua's coroutine library gives them. */
static const char *const coroutine_states[] = {"running", "dead", "suspended", "normal"};

/* The state of `co` as seen from `L`: 0 running, 1 dead, 2 suspended, 3 normal (Lua's auxstatus). */
static int coroutine_state (lua_State *L, lua_State *co) {
  lua_Debug ar;
  if (L == co) return 0;
  switch (lua_status(co)) {
    case LUA_YIELD: return 2;
    case LUA_OK:
      if (lua_getstack(co, 0, &ar)) return 3;
      return lua_gettop(co) == 0 ? 1 : 2;
    default: return 1;
  }
}

/*
** coroutine.close: as Lua's, but the thread's pending __close handlers run as the running thread
** under the episode's limits, and a limit that runs out in one is raised, not returned.
*/
static int safe_close (lua_State *L) {
  lua_State *co = lua_tothread(L, 1);
  Host *h = sslua_gethost(L);
  lua_State *saved;
  int state, status;
  luaL_argexpected(L, co != NULL, 1, "coroutine");
  state = coroutine_state(L, co);
  if (state != 1 && state != 2)
    return luaL_error(L, "cannot close a %s coroutine", coroutine_states[state]);
  saved = h->running;
  h->running = co;
  sslua_arm_hook(co, h);
  status = reset_thread(h, co);
  if (status < 0) return raise_deep_resets(L, h, saved);
  h->running = saved;
  if (h->tripped != SSLUA_TRIP_NONE && status != LUA_ERRMEM) {
    sslua_trip(L, h, h->tripped);
    return sslua_raise_trip(L, h, 1);
  }
  if (status == LUA_OK) {
    lua_pushboolean(L, 1);
    return 1;
  }
  lua_pushboolean(L, 0);
  lua_xmove(co, L, 1);
  return 2;
}

/* }====================================================== */


/*
** {======================================================
** Table functions
** =======================================================
*/

#define NEED_READ 1
#define NEED_WRITE 2
#define NEED_LEN 4

/* Argument `arg` must be a table, or have the metamethods `need` asks for. */
static void check_tablelike (lua_State *L, int arg, int need) {
  if (lua_type(L, arg) == LUA_TTABLE) return;
  if (lua_getmetatable(L, arg)) {
    int ok = 1;
    if (need & NEED_READ) {
      lua_pushliteral(L, "__index");
      ok = ok && lua_rawget(L, -2) != LUA_TNIL;
      lua_pop(L, 1);
    }
    if (need & NEED_WRITE) {
      lua_pushliteral(L, "__newindex");
      ok = ok && lua_rawget(L, -2) != LUA_TNIL;
      lua_pop(L, 1);
    }
    if (need & NEED_LEN) {
      lua_pushliteral(L, "__len");
      ok = ok && lua_rawget(L, -2) != LUA_TNIL;
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
    if (ok) return;
  }
  luaL_typeerror(L, arg, "table");
}

/* Elements between i and j, saturating (no overflow for any integers). */
static long long span (lua_Integer i, lua_Integer j) {
  if (j < i) return 0;
  lua_Unsigned n = (lua_Unsigned)j - (lua_Unsigned)i;
  return n >= (lua_Unsigned)LLONG_MAX ? LLONG_MAX : (long long)n + 1;
}

/* table.insert(t, [pos,] value): `#t` read once, one unit per moved element. */
static int safe_insert (lua_State *L) {
  lua_Integer size, pos;
  check_tablelike(L, 1, NEED_READ | NEED_WRITE | NEED_LEN);
  size = luaL_len(L, 1);
  if (size < LUA_MAXINTEGER) size++;  /* the first empty slot */
  switch (lua_gettop(L)) {
    case 2:
      pos = size;
      sslua_charge(L, 1);
      break;
    case 3: {
      lua_Integer i;
      pos = luaL_checkinteger(L, 2);
      luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)size, 2,
                    "position out of bounds");
      sslua_charge(L, span(pos, size));
      for (i = size; i > pos; i--) {
        sslua_tick(L);
        lua_geti(L, 1, i - 1);
        lua_seti(L, 1, i);
      }
      break;
    }
    default:
      return luaL_error(L, "wrong number of arguments to 'insert'");
  }
  lua_seti(L, 1, pos);
  return 0;
}

/* table.remove(t [, pos]): `#t` read once, one unit per moved element. */
static int safe_remove (lua_State *L) {
  lua_Integer size, pos;
  check_tablelike(L, 1, NEED_READ | NEED_WRITE | NEED_LEN);
  size = luaL_len(L, 1);
  pos = luaL_optinteger(L, 2, size);
  if (pos != size)  /* Lua 5.4 names argument 1 here; so do we */
    luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 1,
                  "position out of bounds");
  sslua_charge(L, span(pos, size) + 1);
  lua_geti(L, 1, pos);  /* the removed value */
  for (; pos < size; pos++) {
    sslua_tick(L);
    lua_geti(L, 1, pos + 1);
    lua_seti(L, 1, pos);
  }
  lua_pushnil(L);
  lua_seti(L, 1, pos);
  return 1;
}

/* Whether element a sorts before b (both on the stack); the order function
** (or `<`) runs as usual, so a Lua comparator is counted by the hook. */
static int sorts_before (lua_State *L, int a, int b) {
  if (lua_isnil(L, 2)) {
    /* `<` on anything but two numbers or two strings runs an `__lt` metamethod, called from
    ** here, not from script code: one that is a host function (a store's `fetch`) would ask
    ** with the rights of the script that called sort, on elements another script chose. */
    int ta = lua_type(L, a), tb = lua_type(L, b);
    if (!((ta == LUA_TNUMBER && tb == LUA_TNUMBER) || (ta == LUA_TSTRING && tb == LUA_TSTRING))) {
      int ia = lua_absindex(L, a), ib = lua_absindex(L, b);
      if (luaL_getmetafield(L, ia, "__lt") != LUA_TNIL || luaL_getmetafield(L, ib, "__lt") != LUA_TNIL) {
        int host = lua_iscfunction(L, -1);
        lua_pop(L, 1);
        if (host)
          return luaL_error(L, "bad argument #1 to 'sort' (an element's '__lt' is a host function; pass sort an order function)");
      }
    }
    return lua_compare(L, a, b, LUA_OPLT);
  }
  lua_pushvalue(L, 2);
  lua_pushvalue(L, a - 1);  /* the function pushed one slot */
  lua_pushvalue(L, b - 2);
  lua_call(L, 2, 1);
  int result = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return result;
}

/* Sifts element `root` down the heap t[lo .. lo + n - 1] (1-based offsets). */
static void sift_down (lua_State *L, lua_Integer lo, lua_Integer root, lua_Integer n) {
  for (;;) {
    lua_Integer child = 2 * root;
    if (child > n) return;
    sslua_charge(L, 2);
    if (child < n) {
      lua_geti(L, 1, lo + child - 1);
      lua_geti(L, 1, lo + child);
      if (sorts_before(L, -2, -1)) child++;
      lua_pop(L, 2);
    }
    lua_geti(L, 1, lo + root - 1);
    lua_geti(L, 1, lo + child - 1);
    if (!sorts_before(L, -2, -1)) {
      lua_pop(L, 2);
      return;
    }
    lua_seti(L, 1, lo + root - 1);   /* t[root] = t[child] */
    lua_seti(L, 1, lo + child - 1);  /* t[child] = old t[root] */
    root = child;
  }
}

/*
** table.sort(t [, comp]): a heap sort, O(n log n) comparisons whatever the
** order function answers, each one charged. Like Lua's, it is not stable.
*/
static int safe_sort (lua_State *L) {
  lua_Integer n, i;
  check_tablelike(L, 1, NEED_READ | NEED_WRITE | NEED_LEN);
  n = luaL_len(L, 1);
  if (n <= 1) return 0;
  luaL_argcheck(L, n < INT_MAX, 1, "array too big");
  if (!lua_isnoneornil(L, 2))
    luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_settop(L, 2);
  for (i = n / 2; i >= 1; i--)
    sift_down(L, 1, i, n);
  for (i = n; i > 1; i--) {
    sslua_charge(L, 1);
    lua_geti(L, 1, 1);
    lua_geti(L, 1, i);
    lua_seti(L, 1, 1);   /* t[1] = t[i] */
    lua_seti(L, 1, i);   /* t[i] = old t[1] */
    sift_down(L, 1, 1, i - 1);
  }
  return 0;
}

/*
** Calls the standard function in upvalue 1 with the arguments as they are,
** after charging `units`.
*/
static int delegate (lua_State *L, long long units) {
  sslua_charge(L, units);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

/* Adds t[i] to the buffer (a string or a number), as Lua's concat does. */
static void add_element (lua_State *L, luaL_Buffer *b, lua_Integer i) {
  lua_geti(L, 1, i);
  if (!lua_isstring(L, -1))
    luaL_error(L, "invalid value (%s) at index %I in table for 'concat'", luaL_typename(L, -1),
               (LUAI_UACINT)i);
  luaL_addvalue(b);
}

/* table.concat(t, sep, i, j): `#t` read only once; charged up front, and ticks per element
** (elements an `__index` written in C makes cost no instruction and may be empty). */
static int safe_concat (lua_State *L) {
  luaL_Buffer b;
  size_t lsep;
  const char *sep;
  lua_Integer i, last;
  check_tablelike(L, 1, NEED_READ | NEED_LEN);
  sep = luaL_optlstring(L, 2, "", &lsep);
  i = luaL_optinteger(L, 3, 1);
  last = lua_isnoneornil(L, 4) ? luaL_len(L, 1) : luaL_checkinteger(L, 4);
  sslua_charge(L, span(i, last));
  luaL_buffinit(L, &b);
  for (; i < last; i++) {
    sslua_tick(L);
    add_element(L, &b, i);
    luaL_addlstring(&b, sep, lsep);
  }
  if (i == last)
    add_element(L, &b, i);
  luaL_pushresult(&b);
  return 1;
}

/* table.unpack(t, i, j): j made explicit. */
static int safe_unpack (lua_State *L) {
  lua_Integer i = luaL_optinteger(L, 2, 1);
  lua_Integer j = lua_isnoneornil(L, 3) ? luaL_len(L, 1) : luaL_checkinteger(L, 3);
  lua_settop(L, 1);
  lua_pushinteger(L, i);
  lua_pushinteger(L, j);
  return delegate(L, span(i, j));
}

/* table.move(a1, f, e, t [, a2]): charged up front, and ticks as it goes (without a budget
** only the deadline ends a move over the whole integer range, which allocates nothing). */
static int safe_move (lua_State *L) {
  lua_Integer from = luaL_checkinteger(L, 2);
  lua_Integer last = luaL_checkinteger(L, 3);
  lua_Integer to = luaL_checkinteger(L, 4);
  int target = lua_isnoneornil(L, 5) ? 1 : 5;
  check_tablelike(L, 1, NEED_READ);
  check_tablelike(L, target, NEED_WRITE);
  sslua_charge(L, span(from, last));
  if (last >= from) {
    lua_Integer count;
    luaL_argcheck(L, from > 0 || last < LUA_MAXINTEGER + from, 3, "too many elements to move");
    count = last - from + 1;
    luaL_argcheck(L, to <= LUA_MAXINTEGER - count + 1, 4, "destination wrap around");
    /* Moving up within one table goes from the end, so no element is overwritten before it moves. */
    int forward = to > last || to <= from || (target != 1 && !lua_compare(L, 1, target, LUA_OPEQ));
    for (lua_Integer k = 0; k < count; k++) {
      lua_Integer offset = forward ? k : count - 1 - k;
      sslua_tick(L);
      lua_geti(L, 1, from + offset);
      lua_seti(L, target, to + offset);
    }
  }
  lua_pushvalue(L, target);
  return 1;
}

/* }====================================================== */


/*
** {======================================================
** String and utf8 functions
** =======================================================
*/

/* Bytes of argument 1 as a charge: one unit per 16 bytes scanned. */
static long long scan_units (lua_State *L) {
  size_t len = 0;
  luaL_checklstring(L, 1, &len);
  return (long long)(len / 16) + 1;
}

/* The number of positions between i and j of a string of `len` bytes. */
static long long string_span (size_t len, lua_Integer i, lua_Integer j) {
  lua_Integer n = (lua_Integer)len;
  if (i < 0) i = (i < -n) ? 1 : n + i + 1;
  else if (i == 0) i = 1;
  if (j < 0) j = (j < -n) ? 0 : n + j + 1;
  else if (j > n) j = n;
  return span(i, j);
}

/* Builds string.rep's result, ticking per piece (only the deadline bounds it without a budget). */
static int build_rep (lua_State *L, lua_Integer n) {
  size_t len, lsep, total;
  const char *s = lua_tolstring(L, 1, &len);
  const char *sep = luaL_optlstring(L, 3, "", &lsep);
  luaL_Buffer b;
  char *out;
  if (n <= 0 || len + lsep == 0) {  /* no pieces, or empty ones: empty, however many */
    lua_pushliteral(L, "");
    return 1;
  }
  if (len + lsep < len || len + lsep > (size_t)INT_MAX / (lua_Unsigned)n)  /* Lua 5.4's MAXSIZE */
    return luaL_error(L, "resulting string too large");
  total = (size_t)n * len + (size_t)(n - 1) * lsep;
  out = luaL_buffinitsize(L, &b, total);
  for (lua_Integer i = 0; i < n; i++) {
    sslua_tick(L);
    memcpy(out, s, len);
    out += len;
    if (i + 1 < n && lsep > 0) {
      memcpy(out, sep, lsep);
      out += lsep;
    }
  }
  luaL_pushresultsize(&b, total);
  return 1;
}

/* string.rep(s, n [, sep]): n pieces, even empty ones, cost a unit each. */
static int safe_rep (lua_State *L) {
  size_t len = 0, lsep = 0;
  luaL_checklstring(L, 1, &len);
  lua_Integer n = luaL_checkinteger(L, 2);
  luaL_optlstring(L, 3, "", &lsep);
  long long units = n > 0 ? (long long)n : 0;
  /* bytes are charged too (a unit per 16), saturating */
  if (n > 0 && len + lsep > 0) {
    long double bytes = (long double)n * (long double)(len + lsep);
    long double more = bytes / 16;
    units = more >= (long double)(LLONG_MAX / 2) ? LLONG_MAX / 2 : units + (long long)more;
  }
  sslua_charge(L, units);  /* a budget refuses it here, before any work */
  return build_rep(L, n);
}

/* string.byte(s, i, j): one unit per value pushed. */
static int safe_byte (lua_State *L) {
  size_t len = 0;
  luaL_checklstring(L, 1, &len);
  lua_Integer i = luaL_optinteger(L, 2, 1);
  lua_Integer j = luaL_optinteger(L, 3, i);
  return delegate(L, string_span(len, i, j) + 1);
}

/* utf8.codepoint(s, i, j): one unit per byte of the range. */
static int safe_codepoint (lua_State *L) {
  size_t len = 0;
  luaL_checklstring(L, 1, &len);
  lua_Integer i = luaL_optinteger(L, 2, 1);
  lua_Integer j = luaL_optinteger(L, 3, i);
  return delegate(L, string_span(len, i, j) + 1);
}

/* utf8.len and utf8.offset scan the string. */
static int safe_scan (lua_State *L) {
  return delegate(L, scan_units(L));
}

/* }====================================================== */


/*
** {======================================================
** The library table
** =======================================================
*/

/* Sets t[name] = closure of `f` over the standard lib.fn (t on top). */
static void wrap_standard (lua_State *L, const char *lib, const char *fn,
                           const char *name, lua_CFunction f) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
  lua_getfield(L, -1, lib);
  lua_getfield(L, -1, fn);
  lua_pushcclosure(L, f, 1);
  lua_setfield(L, -4, name);
  lua_pop(L, 2);
}

int sslua_open_bounded (lua_State *L) {
  lua_createtable(L, 0, 24);
  lua_pushcfunction(L, safe_xpcall);
  lua_setfield(L, -2, "xpcall");
  lua_pushcfunction(L, safe_setmetatable);
  lua_setfield(L, -2, "setmetatable");
  lua_pushcfunction(L, sslua_coroutine_create);
  lua_setfield(L, -2, "coroutine.create");
  lua_pushcfunction(L, safe_resume);
  lua_setfield(L, -2, "coroutine.resume");
  lua_pushcfunction(L, safe_close);
  lua_setfield(L, -2, "coroutine.close");
  lua_pushcfunction(L, safe_insert);
  lua_setfield(L, -2, "table.insert");
  lua_pushcfunction(L, safe_remove);
  lua_setfield(L, -2, "table.remove");
  lua_pushcfunction(L, safe_sort);
  lua_setfield(L, -2, "table.sort");
  lua_pushcfunction(L, safe_concat);
  lua_setfield(L, -2, "table.concat");
  wrap_standard(L, "table", "unpack", "table.unpack", safe_unpack);
  lua_pushcfunction(L, safe_move);
  lua_setfield(L, -2, "table.move");
  lua_pushcfunction(L, safe_rep);
  lua_setfield(L, -2, "string.rep");
  wrap_standard(L, "string", "byte", "string.byte", safe_byte);
  wrap_standard(L, "utf8", "codepoint", "utf8.codepoint", safe_codepoint);
  wrap_standard(L, "utf8", "len", "utf8.len", safe_scan);
  wrap_standard(L, "utf8", "offset", "utf8.offset", safe_scan);
  lua_pushcfunction(L, sslua_charge_function);
  lua_setfield(L, -2, "charge");
  sslua_add_pattern_functions(L, lua_gettop(L));
  return 1;
}

/* }====================================================== */
