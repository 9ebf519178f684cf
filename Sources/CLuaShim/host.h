/*
** The per-state host block shared by the files of CLuaShim (private).
**
** Its address lives in the state's extra space, which Lua copies into every
** new thread, so coroutines find the same block.
*/
#ifndef SENDINGSTATE_HOST_H
#define SENDINGSTATE_HOST_H

#include <stddef.h>

#include <lua.h>

#include "LuaShim.h"

/* Instructions between two checks of the count hook. */
#define SSLUA_HOOK_STEP 1000
/* The step once the hook has seen instructions that are slow (big string
** comparisons, say): checks come ten times as often for the rest of the
** episode, so one slow instruction cannot hide behind a thousand others. */
#define SSLUA_HOOK_SLOW_STEP 10
/* A hook interval longer than this (ns) switches to the slow step. */
#define SSLUA_HOOK_SLOW_NS 20000000LL
/* Units charged by library functions between two clock reads. */
#define SSLUA_CHARGE_CLOCK_STEP 4096
/* Bytes allocated between two clock reads. */
#define SSLUA_ALLOC_CLOCK_STEP (256 * 1024)
/* Size of the buffer that keeps where a refused allocation happened. */
#define SSLUA_WHERE_SIZE 768

typedef struct Host {
  /* Memory. */
  size_t used;          /* bytes currently allocated */
  size_t limit;         /* cap in bytes; 0 = none */
  size_t max_string;    /* largest string in bytes; 0 = none */
  int enforce;          /* > 0 while Lua code runs (the caps apply) */
  size_t since_clock;   /* bytes allocated since the last clock read */
  int refused_string;   /* the last refusal was a string over max_string */
  char memwhere[SSLUA_WHERE_SIZE];  /* where the last refusal happened */

  /* Work budget: one unit per VM instruction, plus what library functions
  ** charge for their own work. */
  long long budget;     /* units per episode; 0 = unlimited */
  long long remaining;  /* units left in this episode */
  long long since_clock_units;  /* units charged since the last clock read */

  /* Wall clock. */
  long long time_limit_ns;  /* per episode; 0 = none */
  long long deadline_ns;    /* monotonic; 0 = none */
  long long last_hook_ns;   /* when the count hook last ran */
  int hook_step;            /* the count hook's current step */
  /* The watch (LuaWatch.c) holds the deadline while no count hook runs: where this host's
  ** entry is (watch_slot -1: not armed), and whether its signal found the deadline passed. */
  int watched;          /* the deadline may be left to the watch (sslua_set_watched) */
  int watch_slot;
  int watch_entry;
  volatile int watch_due;

  /* What print and io.write may output per episode. */
  long long max_output;   /* bytes per episode; 0 = unlimited */
  long long output;       /* bytes written in this episode */

  int tripped;          /* SSLUA_TRIP_* once a limit ran out in this episode */
  int depth;            /* nesting of sslua_pcall */
  int resets;           /* nesting of coroutine resets (LuaSafeLib.c) */
  int episode;          /* > 0 while an explicit episode is open */
  lua_State *running;   /* the thread running Lua code now (or last) */
  lua_State *main;      /* the state's main thread */

  /* Line counts of script files (LuaCoverage.c); NULL: coverage is off, no line hook. */
  SSCoverage *coverage;

  sslua_ReleaseFunction release;
  void *context;        /* the Swift runtime */
} Host;

static inline Host *sslua_gethost (lua_State *L) {
  return *(Host **)lua_getextraspace(L);
}

/* Monotonic nanoseconds. */
long long sslua_now_ns (void);

/* Arms the count hook of `L` for the current episode state. */
void sslua_arm_hook (lua_State *L, Host *h);

/* Makes the next instruction of `L` run the limits' hook (safe in a signal handler). */
void sslua_hook_now (lua_State *L, Host *h);

/* Hands the deadline of `h` to the watch; 0 when it cannot (no free slot). */
int sslua_watch_arm (Host *h);

/* Readies the watch for this thread (its first use starts the watch thread): called before a
** deadline is read from the clock, so that start-up is not charged to the deadline. */
void sslua_watch_prepare (void);

/* Takes the deadline of `h` back from the watch (nothing to do when it holds none). */
void sslua_watch_disarm (Host *h);

/* Ends the deadline of `h`: none runs until the next episode or call sets one. */
void sslua_clear_deadline (Host *h);

/* One step of a library loop whose work was charged up front: no units, but the deadline is
** read now and then, so a loop that only a budget could refuse up front still ends in time. */
void sslua_tick (lua_State *L);

/* Marks the episode as tripped for `reason` and makes the next instruction
** of `L` run the hook (which raises). Safe inside the allocator. */
void sslua_trip (lua_State *L, Host *h, int reason);

/* Starts the limits of a new episode (budget, deadline, hook). */
void sslua_reset_limits (lua_State *L, Host *h);

/* Pushes "where: limit message" for the tripped limit and raises it. */
int sslua_raise_trip (lua_State *L, Host *h, int level);

/*
** Pushes "chunk:line: " of the first script frame at `level` or above
** (frames of host chunks, named "=...", and C frames are skipped), or "".
*/
void sslua_where_script (lua_State *L, int level);

/* Replaces the bare memory error on top with where and why (never fails). */
void sslua_describe_memory_error (lua_State *L, Host *h);

/* Counts the line event `ar` of `L` (the limits' hook calls it for line events). */
void sslua_coverage_line (lua_State *L, Host *h, lua_Debug *ar);

/* Frees a state's line counts (at close). */
void sslua_coverage_free (SSCoverage *c);

/* Whether the first line of `msg` starts with a "chunk:line: " position. */
int sslua_has_position (const char *msg);

#endif
