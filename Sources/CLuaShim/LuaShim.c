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

#include "host.h"

#define gethost sslua_gethost

/*
** {======================================================
** Allocator with a cap
** =======================================================
*/

/*
** Keeps where a refused allocation happened: the first script frames of the
** running thread. Lua raises memory errors without calling the message
** handler, so this is the only moment the position is known. Reading the
** call stack here is safe: 5.4.4 allocates a new stack before it moves the
** old one, and lua_getinfo("Sl") does not allocate. A refusal outside any
** script frame keeps the position noted before: Lua refuses quietly too (a
** stack shrinking after an error has unwound), and that must not erase where
** the error itself happened.
*/
static void note_refusal (Host *h) {
  lua_State *T = h->running;
  lua_Debug ar;
  char where[SSLUA_WHERE_SIZE];
  size_t used = 0;
  int level, frames = 0;
  if (T == NULL) return;
  where[0] = '\0';
  for (level = 0; frames < 6 && lua_getstack(T, level, &ar); level++) {
    if (!lua_getinfo(T, "Sl", &ar) || ar.currentline <= 0 || ar.source[0] == '=')
      continue;
    int n = snprintf(where + used, sizeof where - used,
                     frames == 0 ? "%s:%d:" : "\n\t%s:%d:", ar.short_src,
                     ar.currentline);
    if (n < 0 || (size_t)n >= sizeof where - used) break;
    used += (size_t)n;
    frames++;
  }
  if (frames > 0) memcpy(h->memwhere, where, used + 1);
}

static void *counting_alloc (void *ud, void *ptr, size_t osize, size_t nsize) {
  Host *h = (Host *)ud;
  size_t old = (ptr == NULL) ? 0 : osize;  /* osize is a type tag when ptr is NULL */
  if (nsize == 0) {
    free(ptr);
    h->used -= old;
    return NULL;
  }
  if (h->enforce > 0 && nsize > old) {
    if (ptr == NULL && osize == LUA_TSTRING && h->max_string > 0 &&
        nsize > h->max_string + 64) {  /* a new string, header included */
      h->refused_string = 1;
      note_refusal(h);
      return NULL;
    }
    if (h->limit > 0 && h->used + (nsize - old) > h->limit) {
      h->refused_string = 0;
      note_refusal(h);
      return NULL;  /* Lua raises LUA_ERRMEM inside the protected call */
    }
    /* Memory that grows fast is work too: read the clock now and then. */
    h->since_clock += nsize - old;
    if (h->since_clock >= SSLUA_ALLOC_CLOCK_STEP && h->deadline_ns != 0) {
      h->since_clock = 0;
      if (h->tripped == SSLUA_TRIP_NONE && h->running != NULL &&
          sslua_now_ns() >= h->deadline_ns)
        sslua_trip(h->running, h, SSLUA_TRIP_TIME);  /* raises at the next instruction */
    }
  }
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
  h->watch_slot = -1;
  lua_State *L = lua_newstate(counting_alloc, h);
  if (L == NULL) {
    free(h);
    return NULL;
  }
  *(Host **)lua_getextraspace(L) = h;
  h->main = L;
  lua_atpanic(L, panic);
  lua_setwarnf(L, NULL, NULL);
  return L;
}

void sslua_close (lua_State *L) {
  Host *h = gethost(L);
  sslua_watch_disarm(h);
  lua_close(L);
  sslua_coverage_free(h->coverage);
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

void sslua_set_max_string (lua_State *L, size_t bytes) {
  gethost(L)->max_string = bytes;
}

size_t sslua_max_string (lua_State *L) { return gethost(L)->max_string; }

/* }====================================================== */


/*
** {======================================================
** Protected calls and loading
** =======================================================
*/

/*
** Message handler: adds the position of the first script frame when the
** message has none (errors raised by C functions, error(msg, 0), yields
** across the boundary), then a traceback. Host chunks (named "=...") are
** skipped: the position a person needs is in their script.
*/
/*
** The length of the position ("chunk:12: ") that starts `msg` when its chunk is one of the
** host's own, else 0.
*/
static size_t host_position (lua_State *L, const char *msg) {
  /* A host chunk loaded without debug information (the kernel's) has neither a name nor
  ** lines: Lua writes its position as "?:-1: ". */
  if (strncmp(msg, "?:-1: ", 6) == 0) return 6;
  for (const char *p = msg; *p != '\0' && *p != '\n'; p++) {
    if (*p != ':') continue;
    const char *q = p + 1;
    while (*q >= '0' && *q <= '9') q++;
    if (q > p + 1 && q[0] == ':' && q[1] == ' ')
      return sslua_is_host_chunk(L, msg, (size_t)(p - msg)) ? (size_t)(q + 2 - msg) : 0;
  }
  return 0;
}

/*
** Whether the position that starts `msg` names a chunk nobody loaded: text a script wrote
** (`error("/etc/passwd:99: boom", 0)`, an error object's __tostring) and not a place. Such a
** message is shown whole, after the position of the script frame that raised it.
*/
static int forged_position (lua_State *L, const char *msg) {
  for (const char *p = msg; *p != '\0' && *p != '\n'; p++) {
    if (*p != ':') continue;
    const char *q = p + 1;
    while (*q >= '0' && *q <= '9') q++;
    if (q > p + 1 && q[0] == ':' && q[1] == ' ')
      return sslua_is_script_chunk(L, msg, (size_t)(p - msg)) == 0 && !sslua_is_host_chunk(L, msg, (size_t)(p - msg));
  }
  return 0;
}

static int msghandler (lua_State *L) {
  Host *h = gethost(L);
  int saved_enforce = h->enforce;
  int has_tostring;
  const char *msg;
  h->enforce = 0;  /* the report must not fail for want of memory */
  msg = lua_tostring(L, 1);
  if (msg == NULL) {
    /* An error object's __tostring is script code: it runs under the cap like
    ** any other (a memory error there ends the call as a memory error, and
    ** the cap is the caller's again while the error unwinds). */
    h->enforce = saved_enforce;
    has_tostring = luaL_callmeta(L, 1, "__tostring");
    h->enforce = 0;
    if (has_tostring && lua_type(L, -1) == LUA_TSTRING)
      msg = lua_tostring(L, -1);
    else
      msg = lua_pushfstring(L, "(error object is a %s value)",
                            luaL_typename(L, 1));
  }
  {
    /* No position, or one in the host's own Lua (a library function the sandbox's Lua
    ** called raised it: "sandbox:12: bad argument…"): the script's line is the one to show. */
    size_t skip = host_position(L, msg);
    if (skip > 0 || !sslua_has_position(msg) || forged_position(L, msg)) {
      lua_Debug ar;
      int level;
      for (level = 1; lua_getstack(L, level, &ar); level++) {
        if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0 && ar.source[0] != '=') {
          msg = lua_pushfstring(L, "%s:%d: %s", ar.short_src, ar.currentline, msg + skip);
          break;
        }
      }
    }
  }
  luaL_traceback(L, L, msg, 1);
  h->enforce = saved_enforce;
  return 1;
}

void sslua_describe_memory_error (lua_State *L, Host *h) {
  int saved_enforce = h->enforce;
  h->enforce = 0;  /* describing the error must not fail for want of memory */
  lua_pop(L, 1);
  const char *why = h->refused_string
      ? "not enough memory (a string longer than the %d KiB scripts may build)"
      : "not enough memory (the script reached its memory cap of %d KiB)";
  int kib = (int)((h->refused_string ? h->max_string : h->limit) / 1024);
  if (h->memwhere[0] != '\0') {
    /* "where: message", then the frames kept at the refusal as a traceback */
    const char *rest = strchr(h->memwhere, '\n');
    size_t first = rest ? (size_t)(rest - h->memwhere) : strlen(h->memwhere);
    lua_pushlstring(L, h->memwhere, first);
    lua_pushliteral(L, " ");
    lua_pushfstring(L, why, kib);
    lua_pushliteral(L, "\nstack traceback:\n\t");
    lua_pushstring(L, h->memwhere);
    lua_concat(L, 5);
  }
  else
    lua_pushfstring(L, why, kib);
  h->memwhere[0] = '\0';
  h->enforce = saved_enforce;
}

int sslua_pcall (lua_State *L, int nargs, int nresults) {
  Host *h = gethost(L);
  int base = lua_gettop(L) - nargs;  /* function index */
  int status;
  int saved_enforce = h->enforce;
  lua_State *saved_running = h->running;
  if (h->depth >= SSLUA_MAX_CALL_DEPTH) {
    /* Swift and Lua calling each other this deeply would exhaust the C stack. */
    lua_settop(L, base - 1);
    lua_pushfstring(L, "calls between scripts and the host nested deeper than %d",
                    SSLUA_MAX_CALL_DEPTH);
    return LUA_ERRRUN;
  }
  h->running = L;
  int fresh = h->depth == 0 && h->episode == 0;  /* a new entry into Lua: fresh limits */
  lua_pushcfunction(L, msghandler);
  lua_insert(L, base);
  /* Counted as running Lua before the hook is armed: the watch holds a deadline only inside a
  ** limited call, where its signal is acted on. */
  h->depth++;
  h->enforce = 1;
  if (fresh)
    sslua_reset_limits(L, h);
  else
    sslua_arm_hook(L, h);
  status = lua_pcall(L, nargs, nresults, base);
  h->enforce = saved_enforce;
  h->depth--;
  h->running = saved_running;
  /* The deadline belongs to this entry into Lua: once the outermost call outside an episode
     returns, nothing runs under it, and Swift's later pushes and reads must not be refused by
     a deadline that passed after the call ended. (The trip reason stays for the caller.) */
  if (h->depth == 0 && h->episode == 0)
    sslua_clear_deadline(h);
  lua_remove(L, base);
  if (status == LUA_ERRMEM)
    sslua_describe_memory_error(L, h);
  return status;
}

int sslua_pcall_critical (lua_State *L, int nargs, int nresults) {
  Host *h = gethost(L);
  int base = lua_gettop(L) - nargs;
  int status;
  int saved_enforce = h->enforce;
  lua_Hook hook = lua_gethook(L);
  int mask = lua_gethookmask(L), count = lua_gethookcount(L);
  lua_sethook(L, NULL, 0, 0);
  h->enforce = 0;
  lua_pushcfunction(L, msghandler);
  lua_insert(L, base);
  h->depth++;
  status = lua_pcall(L, nargs, nresults, base);
  h->depth--;
  lua_remove(L, base);
  h->enforce = saved_enforce;
  lua_sethook(L, hook, mask, count);
  return status;
}

int sslua_critical_function (lua_State *L) {
  Host *h = gethost(L);
  int saved_enforce = h->enforce;
  int status;
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_sethook(L, NULL, 0, 0);
  h->enforce = 0;
  status = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0);
  h->enforce = saved_enforce;
  sslua_arm_hook(L, h);
  if (status != LUA_OK) return lua_error(L);  /* a host bug: report it as it is */
  return lua_gettop(L);
}

int sslua_where_function (lua_State *L) {
  sslua_where_script(L, 1);
  return 1;
}

int sslua_loadtext (lua_State *L, const char *buffer, size_t size,
                    const char *chunkname) {
  return luaL_loadbufferx(L, buffer, size, chunkname, "t");
}

typedef struct DumpBuffer {
  unsigned char *bytes;
  size_t size, capacity;
} DumpBuffer;

static int dump_writer (lua_State *L, const void *p, size_t size, void *ud) {
  DumpBuffer *b = (DumpBuffer *)ud;
  (void)L;
  if (b->size + size > b->capacity) {
    size_t capacity = b->capacity ? b->capacity : 4096;
    unsigned char *grown;
    while (capacity < b->size + size) capacity *= 2;
    grown = (unsigned char *)realloc(b->bytes, capacity);
    if (grown == NULL) return 1;
    b->bytes = grown;
    b->capacity = capacity;
  }
  memcpy(b->bytes + b->size, p, size);
  b->size += size;
  return 0;
}

int sslua_dump_top (lua_State *L, int strip, unsigned char **out, size_t *size) {
  DumpBuffer b = {NULL, 0, 0};
  int status = lua_dump(L, dump_writer, &b, strip);
  if (status != 0) {
    free(b.bytes);
    return status;
  }
  *out = b.bytes;
  *size = b.size;
  return 0;
}

int sslua_loadhostbinary (lua_State *L, const unsigned char *buffer, size_t size,
                          const char *chunkname) {
  return luaL_loadbufferx(L, (const char *)buffer, size, chunkname, "b");
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
    /* add the script's position, like luaL_error (host frames skipped) */
    sslua_where_script(L, 1);
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
    sslua_where_script(L, 1);
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

const char *sslua_caller_source (lua_State *L, int level) {
  lua_Debug ar;
  if (!lua_getstack(L, level, &ar)) return NULL;
  if (!lua_getinfo(L, "S", &ar)) return NULL;  /* "S" fills fields only: no error, no allocation */
  return ar.source;
}
