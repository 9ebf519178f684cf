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

/*
** Limits of an episode: one event and everything it causes, or, outside an
** explicit episode, one outermost sslua_pcall.
**
** Work is counted in units: one per VM instruction, and library functions
** charge for the work they do in C (a pattern match step, an element moved
** by table.move). The wall-clock deadline is read by sslua_charge and by the
** allocator, so it holds inside C code too, and in Lua code by the count hook:
** with a budget, every SSLUA_HOOK_STEP instructions; without one (and in a
** watched state), only once the deadline has passed, when the watch's signal
** sets the hook (LuaWatch.c).
*/
#define SSLUA_TRIP_NONE 0
#define SSLUA_TRIP_BUDGET 1
#define SSLUA_TRIP_TIME 2

/* Work units per episode (0 = unlimited). */
void sslua_set_budget(struct lua_State *L, long long instructions);
long long sslua_budget(struct lua_State *L);
long long sslua_instructions_used(struct lua_State *L);

/* Whether the deadline may be left to the watch (no hook until it passes): only when every
** coroutine of the state starts, resumes and closes through the bounded library (which keeps
** the running thread known). Otherwise (the default) the count hook reads the clock. */
void sslua_set_watched(struct lua_State *L, int watched);

/* Wall-clock time per episode in nanoseconds (0 = none). */
void sslua_set_time_limit(struct lua_State *L, long long nanoseconds);
long long sslua_time_limit(struct lua_State *L);

/* The longest string scripts may build, in bytes (0 = none). */
void sslua_set_max_string(struct lua_State *L, size_t bytes);
/* The most bytes print and io.write may output per episode (0: no cap). */
void sslua_set_max_output(struct lua_State *L, long long bytes);
/* Counts `bytes` of output in this episode; 0 once past the cap (never raises). */
int sslua_charge_output(struct lua_State *L, size_t bytes);

/*
** The chunk name ("@path", "=name") of the function `level` frames up the call
** stack (1: whoever called the running C function), or NULL when there is none.
** Never raises.
*/
const char *sslua_caller_source(struct lua_State *L, int level);
size_t sslua_max_string(struct lua_State *L);

/*
** Whether the deadline of the running call or episode has passed (checked by
** Swift code that walks big values); 0 when no call or episode is running.
** Marks the episode as tripped; never raises.
*/
int sslua_deadline_passed(struct lua_State *L);

/* Why the current (or last) episode stopped: SSLUA_TRIP_*. */
int sslua_trip_reason(struct lua_State *L);
/* Non-zero when the budget ran out (kept for callers of the first API). */
int sslua_budget_tripped(struct lua_State *L);

/*
** Opens an episode: a fresh budget and deadline shared by every call into
** Lua until sslua_end_episode, however many there are.
*/
void sslua_begin_episode(struct lua_State *L);
void sslua_end_episode(struct lua_State *L);

/*
** Charges `units` of work to the episode; raises the budget or time error
** when a limit has run out. Call only from C functions Lua called (it may
** raise), never from Swift.
*/
void sslua_charge(struct lua_State *L, long long units);

/* charge(n): sslua_charge for trusted host Lua code. */
int sslua_charge_function(struct lua_State *L);

/*
** A profile of Lua code by function, for the benchmarks (one process-wide table; not for
** production): while on, every firing of the limits' count hook charges the instructions
** since the last one to the running Lua function (its source and first line). Functions that
** run with hooks off (the host's critical sections) are not seen.
*/
void sslua_profile_start(void);
void sslua_profile_stop(void);
/* The profile's entries, heaviest first: "instructions<TAB>source:line" per line, into
** `out` (at most `size` bytes, NUL-terminated); returns the number of entries written. */
int sslua_profile_report(char *out, size_t size);

/*
** Line coverage of script files (chunks named "@path"; the host's "=name" chunks never count),
** for `sendingstate test --coverage`. Off until started: then the limits' hook also takes line
** events, in every thread of the state (the budget and deadline keep working as before), and
** each adds one to its (file, line). The counts live until the state closes.
*/
typedef struct SSCoverage SSCoverage;
/* Starts counting (idempotent); 0 when out of memory. */
int sslua_coverage_start(struct lua_State *L);
/* Whether coverage was started in this state. */
int sslua_coverage_on(struct lua_State *L);
/* The number of files counted so far. */
int sslua_coverage_file_count(struct lua_State *L);
/* The name of file `index` (its chunk name without '@'), or NULL. */
const char *sslua_coverage_file_name(struct lua_State *L, int index);
/* The hits of file `index` by line (entry 0 unused; `*size` entries), or NULL. */
const long long *sslua_coverage_file_hits(struct lua_State *L, int index, int *size);

/* How deeply Swift and Lua calls are nested now (sslua_pcall levels). */
int sslua_call_depth(struct lua_State *L);
/* The deepest nesting sslua_pcall allows; beyond it the call fails. */
#define SSLUA_MAX_CALL_DEPTH 48

/*
** Calls the function below `nargs` arguments under lua_pcallk with a
** message handler that adds the script position (when the message has none)
** and a traceback. Outside an episode, the outermost call starts fresh
** limits. On error the message is on top; a memory error names where the
** refused allocation happened.
*/
int sslua_pcall(struct lua_State *L, int nargs, int nresults);

/*
** Like sslua_pcall, for the host's own Lua code that must run to the end:
** no hook, no memory cap (undoing an event after a limit stopped it).
*/
int sslua_pcall_critical(struct lua_State *L, int nargs, int nresults);

/*
** critical(fn, ...): calls fn with hooks off and the memory cap lifted, then
** restores them; for trusted host code (committing an event must not be cut
** short by a limit).
*/
int sslua_critical_function(struct lua_State *L);

/*
** where(): "file:line: " of the first script frame above the caller (frames
** of host chunks, named "=...", are skipped), or "".
*/
int sslua_where_function(struct lua_State *L);

/* Loads text only (mode "t"); returns the lua_load status. */
int sslua_loadtext(struct lua_State *L, const char *buffer, size_t size,
                   const char *chunkname);

/*
** Dumps the function on top into a buffer from malloc, for the host's own chunks;
** with `strip`, without its debug info (line numbers, local and upvalue names). The
** caller frees *out. Returns 0 on success.
*/
int sslua_dump_top(struct lua_State *L, int strip, unsigned char **out, size_t *size);

/*
** Loads a binary chunk (mode "b"). Only for bytes sslua_dump_top made from the
** host's own source in this process: never for anything a script or a file gave.
*/
int sslua_loadhostbinary(struct lua_State *L, const unsigned char *buffer,
                         size_t size, const char *chunkname);

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

/*
** The bounded library of sandboxes: returns a table of replacements for the
** standard functions that could otherwise run past the limits or outlive
** them: xpcall (handlers stop at a limit), setmetatable (no __gc),
** coroutine.create/resume (hooks follow threads), and charged versions of the
** table, string and utf8 functions that loop in C. Run it protected.
*/
int sslua_open_bounded(struct lua_State *L);

/* coroutine.create for sandboxes: the new thread inherits the budget hook. */
int sslua_coroutine_create(struct lua_State *L);

/*
** The pattern functions (find, match, gmatch, gsub) with Lua 5.4 semantics
** and a step budget: adds them to the table at `idx` (LuaPatterns.c).
*/
void sslua_add_pattern_functions(struct lua_State *L, int idx);

/*
** Authority (LuaAuthority.c): every chunk of script code belongs to an owner (the screen, a
** plugin), registered by source name ("@path") before it runs; a right is checked against
** the owner of the nearest script frame below the gate that was called.
*/
/* Registers the owner of the chunk named `source` (NULL: code nobody may trust). */
void sslua_set_owner(struct lua_State *L, const char *source, const char *owner);
/* Notes a host chunk's name (as errors show it, without "="): positions in it are not a
** script's, and the message handler blames the script frame below instead. */
void sslua_note_host_chunk(struct lua_State *L, const char *name);
/* Whether `name` (not NUL-terminated) is a host chunk's. Never raises for want of memory
** outside a call into Lua. */
int sslua_is_host_chunk(struct lua_State *L, const char *name, size_t length);
/* Whether `name` (not NUL-terminated; Lua's short form, "...tail" for a long one) is a script
** chunk the loader registered: 1, 0, or -1 when none ever was (a runtime without a sandbox). */
int sslua_is_script_chunk(struct lua_State *L, const char *name, size_t length);
/*
** Pushes who asks: the owner (a string) of the nearest script frame at `level` or above,
** true when there is none on the main thread (the host itself asks), false when it cannot be
** told (a tail call into host code erased the caller; code nobody registered; a coroutine with
** no script frame). Returns that frame's level (0: none).
*/
int sslua_push_asker(struct lua_State *L, int level);
/* gate(impl): a C function that calls impl(owner, level, ...) (see LuaAuthority.c). */
int sslua_gate_function(struct lua_State *L);
/* boundary(impl): a C function that calls impl(...): nothing inside can yield. */
int sslua_boundary_function(struct lua_State *L);
/* setOwner(source, owner | false), ownerOf(source): the owner table, for trusted host Lua. */
int sslua_set_owner_function(struct lua_State *L);
int sslua_owner_of_function(struct lua_State *L);
/* The full name (without "@") of a script chunk whose name ends with `tail` (Lua shortens long
** names to "...tail" in messages), into `out`; 0 when none is registered. Never raises outside
** a call into Lua. */
int sslua_source_ending(struct lua_State *L, const char *tail, char *out, size_t size);

/*
** The limits of `sendingstate test` (SpecLimits.c): puts the spec runner's library in
** package.loaded["sendingstate.limits"] of a trusted state (per-test deadlines that hold in
** coroutines and in library functions that loop in C). Returns 1, or 0 with why in `error`.
** Call from the host outside any call into Lua; never raises.
*/
int sslua_install_spec_limits(struct lua_State *L, char *error, size_t error_size);

#endif
