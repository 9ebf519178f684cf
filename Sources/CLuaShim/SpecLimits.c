/*
** CLuaShim: the limits of `sendingstate test`.
**
** Specs are trusted code, run in one state with the real globals, but a mistake in one must not
** hang the run: each test body, hook and block body has a wall-clock deadline (--timeout). It
** is the episode deadline of LuaLimits.c, set and restored by the runner for each of them, so it
** holds where the runner's old Lua debug hook (one thread only, VM instructions only) did not:
**  - in coroutines: coroutine.create, resume and wrap arm the limits' count hook on every
**    thread they run (the sandbox's create and resume, and a wrap built on them here);
**  - in library functions that loop in C: the sandbox's bounded patterns, string.rep and the
**    table functions read the clock as they loop (unpack, byte and the utf8 functions are
**    bounded by the stack or the string's length);
**  - through pcall and xpcall: once the time is out, every instruction raises again
**    (LuaLimits.c) and xpcall's handlers do not run. Only the xpcall of the runner's own
**    safe-call function (busted.safe, named with `owner`) ends the timeout, replacing the error
**    with one that names the line that was running and the limit;
**  - in finalizers, which Lua runs with hooks off: the runner runs a spec's __gc in a coroutine
**    under a deadline of its own (start, timedOut, stop).
*/
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <lua.h>
#include <lauxlib.h>

#include "host.h"

/* The runner's deadline, kept here too: the host clears its own when a call from Swift
** returns (a settle yields to Swift mid-test), and the runner puts it back. */
typedef struct SpecState {
  long long deadline_ns;  /* monotonic; 0 = none */
  double limit;           /* seconds, for messages */
  char where[256];        /* "file:line: " of the first timeout error a handler saw */
} SpecState;

#define STATE_INDEX lua_upvalueindex(1)

static SpecState *spec_state (lua_State *L) {
  return (SpecState *)lua_touserdata(L, STATE_INDEX);
}

/* The host's limits take the runner's deadline, from a clean slate. */
static void apply (lua_State *L, SpecState *s) {
  Host *h = sslua_gethost(L);
  h->deadline_ns = s->deadline_ns;
  h->watch_due = 0;
  h->tripped = SSLUA_TRIP_NONE;
  h->hook_step = SSLUA_HOOK_STEP;
  h->since_clock_units = 0;
  h->last_hook_ns = sslua_now_ns();
}

/* Seconds as nanoseconds from now, saturating (a limit of a year is as good as none). */
static long long deadline_after (double seconds) {
  long long now = sslua_now_ns();
  double ns = seconds * 1e9;
  if (!(ns > 0)) return now;
  if (ns >= (double)(LLONG_MAX - now)) return LLONG_MAX;
  return now + (long long)ns;
}


/*
** {======================================================
** The deadline of a test, hook or block
** =======================================================
*/

/* start(seconds): the running thread's deadline is now + seconds; returns what it replaces (for
** stop): the time that deadline had left (0: none), its limit and its trip. The replaced
** deadline is paused meanwhile: a finalizer's own time is not charged to the test it ran in. */
static int spec_start (lua_State *L) {
  SpecState *s = spec_state(L);
  double seconds = luaL_checknumber(L, 1);
  long long left = 0;
  if (s->deadline_ns != 0) {
    left = s->deadline_ns - sslua_now_ns();
    if (left < 1) left = 1;
  }
  lua_pushinteger(L, (lua_Integer)left);
  lua_pushnumber(L, s->limit);
  lua_pushinteger(L, sslua_gethost(L)->tripped);
  s->deadline_ns = deadline_after(seconds);
  s->limit = seconds;
  s->where[0] = '\0';
  apply(L, s);
  sslua_arm_hook(L, sslua_gethost(L));
  return 3;
}

/* stop(left, limit [, trip]): puts back what start replaced, with the time it had left (a
** timeout that was running out when a finalizer started goes on raising). */
static int spec_stop (lua_State *L) {
  SpecState *s = spec_state(L);
  Host *h = sslua_gethost(L);
  lua_Integer trip = luaL_optinteger(L, 3, SSLUA_TRIP_NONE);
  lua_Integer left = luaL_checkinteger(L, 1);
  s->deadline_ns = left > 0 ? deadline_after((double)left / 1e9) : 0;
  s->limit = luaL_checknumber(L, 2);
  s->where[0] = '\0';
  apply(L, s);
  if (trip == SSLUA_TRIP_TIME || trip == SSLUA_TRIP_BUDGET)
    sslua_trip(L, h, (int)trip);
  else
    sslua_arm_hook(L, h);
  return 0;
}

/* timedOut(): whether the time of the running deadline ran out. */
static int spec_timed_out (lua_State *L) {
  lua_pushboolean(L, sslua_gethost(L)->tripped == SSLUA_TRIP_TIME);
  return 1;
}

/* resume(thread): before the host resumes the run's thread, the deadline it ran under. */
static int spec_resume (lua_State *L) {
  lua_State *co = lua_tothread(L, 1);
  luaL_argexpected(L, co != NULL, 1, "thread");
  apply(L, spec_state(L));
  sslua_arm_hook(co, sslua_gethost(L));
  sslua_gethost(L)->running = co;  /* (what the watch stops when the deadline passes) */
  return 0;
}

/* pause(): the run's thread yielded to the host; the host's own code runs without a deadline. */
static int spec_pause (lua_State *L) {
  Host *h = sslua_gethost(L);
  h->deadline_ns = 0;
  h->tripped = SSLUA_TRIP_NONE;
  h->running = L;
  sslua_arm_hook(L, h);
  return 0;
}

/* owner(f): the function whose xpcall ends a timeout (the runner's safe call). */
static int spec_owner (lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_settop(L, 1);
  lua_setiuservalue(L, STATE_INDEX, 1);
  return 0;
}

/* }====================================================== */


/*
** {======================================================
** pcall and xpcall
** =======================================================
*/

/* The length of the "chunk:line: " the first line of `msg` starts with, or 0. */
static size_t position_length (const char *msg) {
  for (const char *p = msg; *p != '\0' && *p != '\n'; p++) {
    const char *q = p + 1;
    if (*p != ':') continue;
    while (*q >= '0' && *q <= '9') q++;
    if (q > p + 1 && q[0] == ':' && q[1] == ' ') return (size_t)(q + 2 - msg);
  }
  return 0;
}

/* Keeps where the time ran out: the position of the first timeout error a handler sees (a
** caught one is raised again at the next instruction, which would name the line after it).
** Allocates nothing. */
static void note_where (SpecState *s, lua_State *L, int msg) {
  size_t length;
  if (s->where[0] != '\0' || lua_type(L, msg) != LUA_TSTRING) return;
  length = position_length(lua_tostring(L, msg));
  if (length == 0 || length >= sizeof s->where) return;
  memcpy(s->where, lua_tostring(L, msg), length);
  s->where[length] = '\0';
}

/* The message handler of pcall: notes where a timeout happened, changes nothing. */
static int pcall_msgh (lua_State *L) {
  if (sslua_gethost(L)->tripped != SSLUA_TRIP_NONE) note_where(spec_state(L), L, 1);
  return 1;
}

/*
** The message handler of xpcall (upvalues: state, the caller's handler, whether this xpcall ends
** timeouts). Once the time is out, a handler does not run (it could loop as well), except in the
** runner's own xpcall, which ends the timeout and hands its handler the timeout's message.
*/
static int xpcall_msgh (lua_State *L) {
  Host *h = sslua_gethost(L);
  SpecState *s = spec_state(L);
  lua_settop(L, 1);
  if (h->tripped != SSLUA_TRIP_NONE) {
    char text[160];
    note_where(s, L, 1);
    if (!lua_toboolean(L, lua_upvalueindex(3))) return 1;
    if (s->where[0] != '\0')
      lua_pushstring(L, s->where);
    else
      sslua_where_script(L, 1);
    snprintf(text, sizeof text,
             "timed out after %g s (a test, hook or block may run at most --timeout seconds)", s->limit);
    lua_pushstring(L, text);
    lua_concat(L, 2);
    lua_replace(L, 1);
    /* The timeout is over: the runner's bookkeeping runs freely until the next deadline. */
    s->deadline_ns = 0;
    s->where[0] = '\0';
    apply(L, s);
    sslua_arm_hook(L, h);
  }
  lua_pushvalue(L, lua_upvalueindex(2));
  lua_insert(L, 1);
  lua_call(L, 1, 1);
  return 1;
}

static int finish_pcall (lua_State *L, int status, lua_KContext extra) {
  if (status != LUA_OK && status != LUA_YIELD) {
    lua_pushboolean(L, 0);
    lua_pushvalue(L, -2);
    return 2;
  }
  return lua_gettop(L) - (int)extra;
}

/* pcall(f, ...): as Lua's, with a handler that notes where a timeout happened (upvalues: the
** state, the handler). */
static int spec_pcall (lua_State *L) {
  int n = lua_gettop(L);
  luaL_checkany(L, 1);
  lua_pushvalue(L, lua_upvalueindex(2));
  lua_insert(L, 1);  /* handler, f, args... */
  lua_pushboolean(L, 1);
  lua_insert(L, 2);  /* handler, true, f, args... */
  return finish_pcall(L, lua_pcallk(L, n - 1, LUA_MULTRET, 1, 1, finish_pcall), 1);
}

/* xpcall(f, handler, ...): as Lua's, with the timeout rules of xpcall_msgh. */
static int spec_xpcall (lua_State *L) {
  int n = lua_gettop(L);
  int ends_timeouts = 0;
  lua_Debug ar;
  luaL_checktype(L, 2, LUA_TFUNCTION);
  if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "f", &ar)) {
    lua_getiuservalue(L, STATE_INDEX, 1);
    ends_timeouts = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
  }
  lua_pushvalue(L, STATE_INDEX);
  lua_pushvalue(L, 2);
  lua_pushboolean(L, ends_timeouts);
  lua_pushcclosure(L, xpcall_msgh, 3);
  lua_replace(L, 2);  /* f, handler, args... */
  lua_pushboolean(L, 1);
  lua_pushvalue(L, 1);
  lua_rotate(L, 3, 2);  /* f, handler, true, f, args... */
  return finish_pcall(L, lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, finish_pcall), 2);
}

/* }====================================================== */


/*
** {======================================================
** coroutine.wrap on the bounded create and resume
** =======================================================
*/

/* Upvalues: the thread, the bounded resume. A limit that runs out inside the thread is raised by
** resume itself; any other error is raised here, with the caller's position, as Lua's wrap does. */
static int wrapped_call (lua_State *L) {
  int n = lua_gettop(L);
  lua_pushvalue(L, lua_upvalueindex(2));
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_rotate(L, 1, 2);  /* resume, thread, args... */
  lua_call(L, n + 1, LUA_MULTRET);
  if (!lua_toboolean(L, 1)) {
    lua_settop(L, 2);
    if (lua_type(L, 2) == LUA_TSTRING) {
      luaL_where(L, 1);
      lua_insert(L, 2);
      lua_concat(L, 2);
    }
    return lua_error(L);
  }
  return lua_gettop(L) - 1;
}

/* wrap(f); upvalues: the bounded create, the bounded resume. */
static int spec_wrap (lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_settop(L, 1);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, 1, 1);  /* the thread */
  lua_pushvalue(L, lua_upvalueindex(2));
  lua_pushcclosure(L, wrapped_call, 2);
  return 1;
}

/* }====================================================== */


/*
** {======================================================
** The library
** =======================================================
*/

/* Builds the table (in a protected call: it allocates) and keeps it in package.loaded. */
static int open_spec_limits (lua_State *L) {
  static const luaL_Reg with_state[] = {
      {"start", spec_start}, {"stop", spec_stop}, {"resume", spec_resume}, {"owner", spec_owner},
      {"xpcall", spec_xpcall}, {NULL, NULL}};
  static const luaL_Reg plain[] = {
      {"pause", spec_pause}, {"timedOut", spec_timed_out}, {NULL, NULL}};
  SpecState *s;
  lua_createtable(L, 0, 16);
  luaL_setfuncs(L, plain, 0);
  s = (SpecState *)lua_newuserdatauv(L, sizeof(SpecState), 1);
  memset(s, 0, sizeof *s);
  lua_pushvalue(L, -1);
  lua_pushvalue(L, -1);
  lua_pushcclosure(L, pcall_msgh, 1);
  lua_pushcclosure(L, spec_pcall, 2);  /* over the state and its handler */
  lua_setfield(L, -3, "pcall");
  luaL_setfuncs(L, with_state, 1);  /* each closes over the state, which is popped */
  /* The sandbox's bounded functions, and wrap over its create and resume. */
  lua_pushcfunction(L, sslua_open_bounded);
  lua_call(L, 0, 1);
  lua_getfield(L, -1, "coroutine.create");
  lua_getfield(L, -2, "coroutine.resume");
  lua_pushcclosure(L, spec_wrap, 2);
  lua_setfield(L, -3, "wrap");
  lua_setfield(L, -2, "bounded");
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  lua_pushvalue(L, -2);
  lua_setfield(L, -2, "sendingstate.limits");
  return 0;
}

int sslua_install_spec_limits (lua_State *L, char *error, size_t error_size) {
  int top = lua_gettop(L);
  int status;
  if (!lua_checkstack(L, 2)) {
    snprintf(error, error_size, "no room on the Lua stack");
    return 0;
  }
  lua_pushcfunction(L, open_spec_limits);
  status = lua_pcall(L, 0, 0, 0);
  /* The spec host gives specs the bounded coroutine functions: the watch may hold the deadline. */
  sslua_gethost(L)->watched = status == LUA_OK;
  if (status != LUA_OK) {
    const char *why = lua_tostring(L, -1);
    snprintf(error, error_size, "%s", why != NULL ? why : "(no message)");
  }
  lua_settop(L, top);
  return status == LUA_OK;
}

/* }====================================================== */
