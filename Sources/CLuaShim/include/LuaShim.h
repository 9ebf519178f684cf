/*
** CLuaShim: the C half of SendingState's Lua host.
**
** It owns everything that may raise a Lua error, so that no error ever
** longjmps across a Swift frame:
**  - the trampoline through which Lua calls Swift: the Swift function
**    returns a status and the error is raised here, after it returned;
**  - the protected call with a traceback message handler;
**  - the counting allocator (memory cap) and the instruction-budget hook;
**  - object userdata with a cheap type tag and field-dispatch metamethods.
*/
#ifndef SENDINGSTATE_LUASHIM_H
#define SENDINGSTATE_LUASHIM_H

#include <stddef.h>
#include <stdint.h>

struct lua_State;

/*
** A Swift function called from Lua. Returns the number of results it
** pushed, or SSLUA_CALLBACK_ERROR with the error value on top of the stack.
** `context` is the block of the closure's context userdata (or NULL).
*/
typedef int (*sslua_SwiftFunction)(struct lua_State *L, void *context);
#define SSLUA_CALLBACK_ERROR (-1)
/* As SSLUA_CALLBACK_ERROR, for a message that already carries its position. */
#define SSLUA_CALLBACK_ERROR_RAW (-2)

/*
** A Swift property dispatcher for object userdata. `field` is the id the
** type's field table maps the key to, or -1 for an unknown key (the key is
** at stack index 2). For a set, the value is at index 3.
*/
typedef int (*sslua_FieldDispatcher)(struct lua_State *L, void *object,
                                     int field, int is_set, void *type_context);

/* Releases a retained Swift object stored in a userdata (called once). */
typedef void (*sslua_ReleaseFunction)(void *object);

/* The block of every userdata this host creates. */
typedef struct sslua_Object {
  uint32_t magic;  /* SSLUA_OBJECT_MAGIC while the block is ours */
  uint32_t tag;    /* the type tag; 0 for closure contexts */
  void *object;    /* a retained Swift object, NULL once released */
} sslua_Object;

#define SSLUA_OBJECT_MAGIC 0x5353u /* "SS" */

/* States. */
struct lua_State *sslua_newstate(size_t memory_limit, sslua_ReleaseFunction release);
void sslua_close(struct lua_State *L);

/* An opaque pointer the host keeps with the state (the Swift runtime). */
void sslua_set_host_context(struct lua_State *L, void *context);
void *sslua_host_context(struct lua_State *L);

/* Memory cap (bytes; 0 = unlimited). Enforced only while Lua code runs. */
size_t sslua_memory_used(struct lua_State *L);
size_t sslua_memory_limit(struct lua_State *L);
void sslua_set_memory_limit(struct lua_State *L, size_t limit);

/* Instruction budget per entry into Lua (0 = unlimited). */
void sslua_set_budget(struct lua_State *L, long long instructions);
long long sslua_budget(struct lua_State *L);
int sslua_budget_tripped(struct lua_State *L);
long long sslua_instructions_used(struct lua_State *L);

/*
** Calls the function below `nargs` arguments under lua_pcallk with a
** traceback message handler. The outermost call resets the budget. On
** error the message (with traceback appended) is on top.
*/
int sslua_pcall(struct lua_State *L, int nargs, int nresults);

/* Loads text only (mode "t"); returns the lua_load status. */
int sslua_loadtext(struct lua_State *L, const char *buffer, size_t size,
                   const char *chunkname);

/* Pushes a C closure that calls `fn`; pops the context value from the top. */
void sslua_push_swift_function(struct lua_State *L, sslua_SwiftFunction fn);

/* Pushes a full userdata {magic, tag, object} with no metatable yet. */
sslua_Object *sslua_push_object(struct lua_State *L, uint32_t tag, void *object);

/* The block at `idx` if it is one of ours with `tag` (0: any tag), else NULL. */
sslua_Object *sslua_to_object(struct lua_State *L, int idx, uint32_t tag);

/* The __gc metamethod for object userdata: releases the object once. */
int sslua_object_gc(struct lua_State *L);

/*
** Pushes the __index (is_set 0) or __newindex (is_set 1) closure for a
** type. Pops the field table (key -> integer id) from the top. Dispatch
** checks the receiver's tag, maps the key, and calls `dispatcher`.
*/
void sslua_push_field_access(struct lua_State *L, sslua_FieldDispatcher dispatcher,
                             void *type_context, uint32_t tag, int is_set);

/* coroutine.create for sandboxes: the new thread inherits the budget hook. */
int sslua_coroutine_create(struct lua_State *L);

#endif
