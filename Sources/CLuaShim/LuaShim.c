/*
** CLuaShim: see include/LuaShim.h. Style follows Lua's own sources.
*/
#include "LuaShim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

/* Per-state host data; its address lives in the state's extra space. */
typedef struct Host {
  size_t used;          /* bytes currently allocated */
  size_t limit;         /* cap in bytes; 0 = none */
  int enforce;          /* > 0 while Lua code runs (cap applies) */
  long long budget;     /* instructions per entry; 0 = unlimited */
  long long remaining;  /* instructions left in this entry */
  int tripped;          /* the budget ran out in this entry */
  int depth;            /* nesting of sslua_pcall */
  sslua_ReleaseFunction release;
  void *context;        /* the Swift runtime */
} Host;

/* Instructions between two budget checks. */
#define BUDGET_STEP 1000

static Host *gethost (lua_State *L) {
  return *(Host **)lua_getextraspace(L);
}


/*
** {======================================================
** Allocator with a cap
** =======================================================
*/

static void *counting_alloc (void *ud, void *ptr, size_t osize, size_t nsize) {
  Host *h = (Host *)ud;
  size_t old = (ptr == NULL) ? 0 : osize;  /* osize is a type tag when ptr is NULL */
  if (nsize == 0) {
    free(ptr);
    h->used -= old;
    return NULL;
  }
  if (h->enforce > 0 && h->limit > 0 && nsize > old &&
      h->used + (nsize - old) > h->limit)
    return NULL;  /* Lua raises LUA_ERRMEM inside the protected call */
  void *block = realloc(ptr, nsize);
  if (block != NULL)
    h->used = h->used - old + nsize;
  return block;
}

static int panic (lua_State *L) {
  const char *msg = lua_tostring(L, -1);
  fprintf(stderr, "sendingstate: unprotected Lua error (host bug): %s\n",
          msg ? msg : "(no message)");
  abort();
  return 0;
}

lua_State *sslua_newstate (size_t memory_limit, sslua_ReleaseFunction release) {
  Host *h = (Host *)calloc(1, sizeof(Host));
  if (h == NULL) return NULL;
  h->limit = memory_limit;
  h->release = release;
  lua_State *L = lua_newstate(counting_alloc, h);
  if (L == NULL) {
    free(h);
    return NULL;
  }
  *(Host **)lua_getextraspace(L) = h;
  lua_atpanic(L, panic);
  lua_setwarnf(L, NULL, NULL);
  return L;
}

void sslua_close (lua_State *L) {
  Host *h = gethost(L);
  lua_close(L);
  free(h);
}

void sslua_set_host_context (lua_State *L, void *context) {
  gethost(L)->context = context;
}

void *sslua_host_context (lua_State *L) { return gethost(L)->context; }

size_t sslua_memory_used (lua_State *L) { return gethost(L)->used; }
size_t sslua_memory_limit (lua_State *L) { return gethost(L)->limit; }
void sslua_set_memory_limit (lua_State *L, size_t limit) {
  gethost(L)->limit = limit;
}

/* }====================================================== */


/*
** {======================================================
** Instruction budget
** =======================================================
*/

static void count_hook (lua_State *L, lua_Debug *ar) {
  Host *h = gethost(L);
  h->remaining -= lua_gethookcount(L);
  if (h->remaining > 0) return;
  h->tripped = 1;
  /* Check every instruction from now on, so a script that catches the
  ** error with pcall cannot keep running. */
  lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
  /* The position is the running function's (level 0), not its caller's. */
  if (lua_getstack(L, 0, ar) && lua_getinfo(L, "Sl", ar) && ar->currentline > 0)
    lua_pushfstring(L, "%s:%d: ", ar->short_src, ar->currentline);
  else
    lua_pushliteral(L, "");
  lua_pushfstring(L, "instruction budget exceeded (%I instructions)",
                  (LUAI_UACINT)h->budget);
  lua_concat(L, 2);
  lua_error(L);
}

void sslua_set_budget (lua_State *L, long long instructions) {
  gethost(L)->budget = instructions < 0 ? 0 : instructions;
}

long long sslua_budget (lua_State *L) { return gethost(L)->budget; }
int sslua_budget_tripped (lua_State *L) { return gethost(L)->tripped; }

long long sslua_instructions_used (lua_State *L) {
  Host *h = gethost(L);
  return h->budget == 0 ? 0 : h->budget - h->remaining;
}

static void arm_hook (lua_State *L, Host *h) {
  if (h->budget > 0) {
    int step = h->budget < BUDGET_STEP ? (int)h->budget : BUDGET_STEP;
    lua_sethook(L, count_hook, LUA_MASKCOUNT, step);
  }
  else
    lua_sethook(L, NULL, 0, 0);
}

int sslua_coroutine_create (lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_State *co = lua_newthread(L);
  lua_Hook hook = lua_gethook(L);
  if (hook != NULL)
    lua_sethook(co, hook, lua_gethookmask(L), lua_gethookcount(L));
  lua_pushvalue(L, 1);
  lua_xmove(L, co, 1);
  return 1;
}

/* }====================================================== */


/*
** {======================================================
** Protected calls and loading
** =======================================================
*/

/* Message handler: appends a traceback to the error message. */
static int msghandler (lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  if (msg == NULL) {
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
      msg = lua_tostring(L, -1);
    else
      msg = lua_pushfstring(L, "(error object is a %s value)",
                            luaL_typename(L, 1));
  }
  luaL_traceback(L, L, msg, 1);
  return 1;
}

int sslua_pcall (lua_State *L, int nargs, int nresults) {
  Host *h = gethost(L);
  int base = lua_gettop(L) - nargs;  /* function index */
  int status;
  int saved_enforce = h->enforce;
  if (h->depth == 0) {  /* a new entry into Lua: fresh budget */
    h->remaining = h->budget;
    h->tripped = 0;
    arm_hook(L, h);
  }
  lua_pushcfunction(L, msghandler);
  lua_insert(L, base);
  h->depth++;
  h->enforce = 1;
  status = lua_pcall(L, nargs, nresults, base);
  h->enforce = saved_enforce;
  h->depth--;
  lua_remove(L, base);
  return status;
}

int sslua_loadtext (lua_State *L, const char *buffer, size_t size,
                    const char *chunkname) {
  return luaL_loadbufferx(L, buffer, size, chunkname, "t");
}

/* }====================================================== */


/*
** {======================================================
** Calling Swift: the trampoline
** =======================================================
*/

/*
** Calls the Swift function in upvalue 1 with the context in upvalue 2.
** The cap is lifted while Swift runs (its pushes must not fail), and any
** error it reports is raised here, after its frame has returned.
*/
static int trampoline (lua_State *L) {
  Host *h = gethost(L);
  sslua_SwiftFunction fn =
      (sslua_SwiftFunction)(uintptr_t)lua_touserdata(L, lua_upvalueindex(1));
  void *context = lua_touserdata(L, lua_upvalueindex(2));
  int saved_enforce = h->enforce;
  int n;
  h->enforce = 0;
  n = fn(L, context);
  h->enforce = saved_enforce;
  if (n >= 0) return n;
  if (lua_gettop(L) == 0) lua_pushliteral(L, "error in host function");
  if (n == SSLUA_CALLBACK_ERROR && lua_type(L, -1) == LUA_TSTRING) {
    /* add position, like luaL_error */
    luaL_where(L, 1);
    lua_insert(L, -2);
    lua_concat(L, 2);
  }
  return lua_error(L);
}

void sslua_push_swift_function (lua_State *L, sslua_SwiftFunction fn) {
  lua_pushlightuserdata(L, (void *)(uintptr_t)fn);
  lua_insert(L, -2);  /* fn below the context */
  lua_pushcclosure(L, trampoline, 2);
}

/* }====================================================== */


/*
** {======================================================
** Object userdata
** =======================================================
*/

sslua_Object *sslua_push_object (lua_State *L, uint32_t tag, void *object) {
  sslua_Object *o = (sslua_Object *)lua_newuserdatauv(L, sizeof(sslua_Object), 0);
  o->magic = SSLUA_OBJECT_MAGIC;
  o->tag = tag;
  o->object = object;
  return o;
}

sslua_Object *sslua_to_object (lua_State *L, int idx, uint32_t tag) {
  sslua_Object *o;
  if (lua_type(L, idx) != LUA_TUSERDATA ||
      lua_rawlen(L, idx) != sizeof(sslua_Object))
    return NULL;
  o = (sslua_Object *)lua_touserdata(L, idx);
  if (o->magic != SSLUA_OBJECT_MAGIC || (tag != 0 && o->tag != tag))
    return NULL;
  return o;
}

int sslua_object_gc (lua_State *L) {
  sslua_Object *o = sslua_to_object(L, 1, 0);
  if (o != NULL && o->object != NULL) {
    void *object = o->object;
    o->object = NULL;
    gethost(L)->release(object);
  }
  return 0;
}

/*
** Upvalues: 1 field table, 2 dispatcher, 3 type context, 4 tag, 5 is_set.
*/
static int field_access (lua_State *L) {
  Host *h = gethost(L);
  uint32_t tag = (uint32_t)lua_tointeger(L, lua_upvalueindex(4));
  int is_set = lua_toboolean(L, lua_upvalueindex(5));
  sslua_FieldDispatcher dispatch =
      (sslua_FieldDispatcher)(uintptr_t)lua_touserdata(L, lua_upvalueindex(2));
  void *type_context = lua_touserdata(L, lua_upvalueindex(3));
  sslua_Object *o = sslua_to_object(L, 1, tag);
  int field = -1;
  int saved_enforce = h->enforce;
  int n;
  if (o == NULL || o->object == NULL)
    return luaL_error(L, "bad receiver for property access (expected %s)",
                      luaL_typename(L, 1));
  if (lua_type(L, 2) == LUA_TSTRING) {
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) == LUA_TNUMBER)
      field = (int)lua_tointeger(L, -1);
    lua_pop(L, 1);
  }
  h->enforce = 0;
  n = dispatch(L, o->object, field, is_set, type_context);
  h->enforce = saved_enforce;
  if (n >= 0) return n;
  if (lua_type(L, -1) == LUA_TSTRING) {
    luaL_where(L, 1);
    lua_insert(L, -2);
    lua_concat(L, 2);
  }
  return lua_error(L);
}

void sslua_push_field_access (lua_State *L, sslua_FieldDispatcher dispatcher,
                              void *type_context, uint32_t tag, int is_set) {
  /* field table is on top */
  lua_pushlightuserdata(L, (void *)(uintptr_t)dispatcher);
  lua_pushlightuserdata(L, type_context);
  lua_pushinteger(L, (lua_Integer)tag);
  lua_pushboolean(L, is_set);
  lua_pushcclosure(L, field_access, 5);
}

/* }====================================================== */
