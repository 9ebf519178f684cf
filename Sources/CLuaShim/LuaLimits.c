/*
** CLuaShim: the limits of an episode (work budget and wall-clock deadline).
**
** With an instruction budget, the count hook runs every SSLUA_HOOK_STEP
** instructions; it counts the budget and reads the clock. With a deadline
** alone no hook runs: the watch (LuaWatch.c) sets it when the deadline
** passes, so a script runs at full speed until then. Library functions that
** loop in C charge their work through sslua_charge, and the allocator reads
** the clock as memory grows, so neither a long C loop nor a run of huge
** string copies can hide from the deadline. Once a limit runs out the hook
** is set to fire on every instruction, so a script that catches the error
** with pcall cannot go on.
*/
/* clock_gettime is POSIX: ask for it under -std=c99 too. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lua.h>
#include <lauxlib.h>

#include "host.h"

long long sslua_now_ns (void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void count_hook (lua_State *L, lua_Debug *ar);

/* The benchmarks' profile is on (the hook then runs without limits too). */
static int profile_on = 0;

/* The line events coverage asks for (none while it is off: no cost). */
static int line_mask (Host *h) {
  return h->coverage != NULL ? LUA_MASKLINE : 0;
}

/* Sets the count hook of `L` to fire every `step` instructions (and on lines, for coverage). */
static void set_count_hook (lua_State *L, Host *h, int step) {
  lua_sethook(L, count_hook, LUA_MASKCOUNT | line_mask(h), step);
}

void sslua_hook_now (lua_State *L, Host *h) {
  set_count_hook(L, h, 1);
}

void sslua_clear_deadline (Host *h) {
  h->deadline_ns = 0;
  sslua_watch_disarm(h);
}

void sslua_arm_hook (lua_State *L, Host *h) {
  /* The watch holds the deadline only where its signal is acted on: in a limited call of a
  ** watched state. Lua run outside one (a finalizer at close or during a collection the host
  ** caused, a host function's callback) counts with the hook, as with a budget. */
  int counting = h->budget > 0 || profile_on || h->tripped != SSLUA_TRIP_NONE;
  if (h->deadline_ns == 0 || counting)
    sslua_watch_disarm(h);
  else if (h->watched && h->depth > 0 && h->enforce > 0 && !h->watch_due && sslua_watch_arm(h))
    counting = 0;  /* the watch holds the deadline: no hook until it passes */
  else
    counting = 1;  /* passed already, or no room in the watch: the count hook reads the clock */
  if (!counting) {
    if (h->coverage != NULL)
      lua_sethook(L, count_hook, LUA_MASKLINE, 0);
    else
      lua_sethook(L, NULL, 0, 0);
    return;
  }
  int step = h->hook_step > 0 ? h->hook_step : SSLUA_HOOK_STEP;
  if (profile_on || h->tripped != SSLUA_TRIP_NONE || h->watch_due)  /* (a profile counts every instruction) */
    step = 1;
  else if (h->budget > 0 && h->remaining < step)
    step = h->remaining > 0 ? (int)h->remaining : 1;
  set_count_hook(L, h, step);
}

void sslua_reset_limits (lua_State *L, Host *h) {
  h->remaining = h->budget;
  h->output = 0;
  h->tripped = SSLUA_TRIP_NONE;
  h->since_clock_units = 0;
  h->since_clock = 0;
  h->hook_step = SSLUA_HOOK_STEP;
  h->last_hook_ns = 0;
  if (h->time_limit_ns > 0) {
    if (h->budget <= 0 && h->watched) sslua_watch_prepare();
    h->last_hook_ns = sslua_now_ns();
    h->deadline_ns = h->last_hook_ns + h->time_limit_ns;
  }
  else
    h->deadline_ns = 0;
  h->watch_due = 0;
  sslua_arm_hook(L, h);
}

void sslua_trip (lua_State *L, Host *h, int reason) {
  if (h->tripped == SSLUA_TRIP_NONE)
    h->tripped = reason;
  sslua_watch_disarm(h);  /* the watch has done its part: no more signals */
  /* Every instruction from now on runs the hook, which raises again. */
  set_count_hook(L, h, 1);
}

/* Pushes the message of the limit that ran out. */
static void push_limit_message (lua_State *L, Host *h) {
  if (h->tripped == SSLUA_TRIP_TIME) {
    char text[96];
    snprintf(text, sizeof text, "time limit exceeded (one event may run %.3g s)",
             (double)h->time_limit_ns / 1e9);
    lua_pushstring(L, text);
  }
  else
    lua_pushfstring(L, "instruction budget exceeded (%I instructions)",
                    (LUAI_UACINT)h->budget);
}

void sslua_where_script (lua_State *L, int level) {
  lua_Debug ar;
  for (; lua_getstack(L, level, &ar); level++) {
    if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0 && ar.source[0] != '=') {
      lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
      return;
    }
  }
  lua_pushliteral(L, "");
}

int sslua_raise_trip (lua_State *L, Host *h, int level) {
  sslua_where_script(L, level);
  push_limit_message(L, h);
  lua_concat(L, 2);
  return lua_error(L);
}

/* Reads the clock; trips the time limit when the deadline has passed. */
static int past_deadline (Host *h, long long now) {
  return h->deadline_ns != 0 && now >= h->deadline_ns;
}

/*
** The benchmarks' profile: a small open-addressing table of (source, first line) → weight.
*/
#define PROFILE_SLOTS 1024
typedef struct ProfileEntry {
  char source[64];
  int line;
  long long weight;
} ProfileEntry;
static ProfileEntry profile_entries[PROFILE_SLOTS];

void sslua_profile_start (void) {
  memset(profile_entries, 0, sizeof profile_entries);
  profile_on = 1;
}

void sslua_profile_stop (void) {
  profile_on = 0;
}

static void profile_sample (lua_State *L, long long weight) {
  lua_Debug ar;
  if (!lua_getstack(L, 0, &ar) || !lua_getinfo(L, "S", &ar)) return;
  unsigned long hash = 5381u + (unsigned long)ar.linedefined * 31u;
  for (const char *c = ar.short_src; *c; c++) hash = hash * 33u + (unsigned char)*c;
  for (int probe = 0; probe < PROFILE_SLOTS; probe++) {
    ProfileEntry *e = &profile_entries[(hash + (unsigned long)probe) % PROFILE_SLOTS];
    if (e->weight == 0) {
      snprintf(e->source, sizeof e->source, "%s", ar.short_src);
      e->line = ar.linedefined;
    }
    if (e->line == ar.linedefined && strcmp(e->source, ar.short_src) == 0) {
      e->weight += weight;
      return;
    }
  }
}

static int profile_heavier (const void *a, const void *b) {
  long long wa = ((const ProfileEntry *)a)->weight, wb = ((const ProfileEntry *)b)->weight;
  return (wa < wb) - (wa > wb);
}

int sslua_profile_report (char *out, size_t size) {
  static ProfileEntry sorted[PROFILE_SLOTS];
  memcpy(sorted, profile_entries, sizeof sorted);
  qsort(sorted, PROFILE_SLOTS, sizeof sorted[0], profile_heavier);
  size_t used = 0;
  int written = 0;
  if (size > 0) out[0] = '\0';
  for (int i = 0; i < PROFILE_SLOTS && sorted[i].weight > 0; i++) {
    int n = snprintf(out + used, size - used, "%lld\t%s:%d\n", sorted[i].weight, sorted[i].source, sorted[i].line);
    if (n < 0 || (size_t)n >= size - used) break;
    used += (size_t)n;
    written++;
  }
  return written;
}

static void count_hook (lua_State *L, lua_Debug *ar) {
  Host *h = sslua_gethost(L);
  if (ar->event == LUA_HOOKLINE) {  /* (only while coverage is on) */
    sslua_coverage_line(L, h, ar);
    return;
  }
  if (profile_on) profile_sample(L, lua_gethookcount(L));
  h->running = L;
  if (h->tripped == SSLUA_TRIP_NONE) {
    if (h->budget > 0) {
      h->remaining -= lua_gethookcount(L);
      if (h->remaining <= 0)
        h->tripped = SSLUA_TRIP_BUDGET;
    }
    if (h->deadline_ns != 0 && h->tripped == SSLUA_TRIP_NONE) {
      long long now = sslua_now_ns();
      if (past_deadline(h, now))
        h->tripped = SSLUA_TRIP_TIME;
      else if (!profile_on && h->hook_step == SSLUA_HOOK_STEP &&
               now - h->last_hook_ns > SSLUA_HOOK_SLOW_NS) {
        /* A thousand instructions took this long: some are very slow, so
        ** check more often for the rest of the episode. */
        h->hook_step = SSLUA_HOOK_SLOW_STEP;
        set_count_hook(L, h, SSLUA_HOOK_SLOW_STEP);
      }
      h->last_hook_ns = now;
    }
    if (h->tripped == SSLUA_TRIP_NONE) {
      if (h->budget <= 0 && !profile_on) {
        h->watch_due = 0;
        sslua_arm_hook(L, h);
      }  /* the watch's signal came early (a new deadline): back to none */
      else if (h->budget > 0 && h->remaining < lua_gethookcount(L))
        set_count_hook(L, h, (int)h->remaining);
      return;
    }
  }
  set_count_hook(L, h, 1);
  sslua_watch_disarm(h);  /* tripped: no more signals */
  /* The position is the running function's (level 0), not its caller's. */
  sslua_where_script(L, 0);
  push_limit_message(L, h);
  lua_concat(L, 2);
  lua_error(L);
}

void sslua_charge (lua_State *L, long long units) {
  Host *h = sslua_gethost(L);
  if (h->tripped == SSLUA_TRIP_NONE && h->enforce > 0) {
    if (h->budget > 0 && units > 0) {
      h->remaining -= units;
      if (h->remaining <= 0)
        h->tripped = SSLUA_TRIP_BUDGET;
    }
    if (h->deadline_ns != 0 && h->tripped == SSLUA_TRIP_NONE) {
      /* The clock is read every SSLUA_CHARGE_CLOCK_STEP units, at once for a big charge (no
      ** sum that can overflow), and as soon as the watch's signal has come. */
      long long step = units > 0 ? units : 1;
      if (h->watch_due || step >= SSLUA_CHARGE_CLOCK_STEP - h->since_clock_units) {
        h->since_clock_units = 0;
        if (past_deadline(h, sslua_now_ns()))
          h->tripped = SSLUA_TRIP_TIME;
      }
      else
        h->since_clock_units += step;
    }
    if (h->tripped == SSLUA_TRIP_NONE) return;
  }
  else if (h->tripped == SSLUA_TRIP_NONE)
    return;  /* not in a limited call (host code run from Swift) */
  sslua_trip(L, h, h->tripped);
  sslua_raise_trip(L, h, 1);
}

void sslua_tick (lua_State *L) {
  sslua_charge(L, 0);
}

int sslua_charge_function (lua_State *L) {
  lua_Integer units = luaL_checkinteger(L, 1);
  sslua_charge(L, (long long)units);
  return 0;
}

void sslua_set_budget (lua_State *L, long long instructions) {
  sslua_gethost(L)->budget = instructions < 0 ? 0 : instructions;
}

long long sslua_budget (lua_State *L) { return sslua_gethost(L)->budget; }

long long sslua_instructions_used (lua_State *L) {
  Host *h = sslua_gethost(L);
  return h->budget == 0 ? 0 : h->budget - h->remaining;
}

void sslua_set_watched (lua_State *L, int watched) {
  sslua_gethost(L)->watched = watched != 0;
}

void sslua_set_time_limit (lua_State *L, long long nanoseconds) {
  sslua_gethost(L)->time_limit_ns = nanoseconds < 0 ? 0 : nanoseconds;
}

long long sslua_time_limit (lua_State *L) {
  return sslua_gethost(L)->time_limit_ns;
}

int sslua_trip_reason (lua_State *L) { return sslua_gethost(L)->tripped; }

int sslua_deadline_passed (lua_State *L) {
  Host *h = sslua_gethost(L);
  if (h->deadline_ns == 0) return 0;  /* no call or episode is running: nothing to keep */
  if (h->tripped == SSLUA_TRIP_TIME) return 1;
  if (!past_deadline(h, sslua_now_ns())) return 0;
  if (h->tripped == SSLUA_TRIP_NONE) h->tripped = SSLUA_TRIP_TIME;
  return 1;
}

int sslua_budget_tripped (lua_State *L) {
  return sslua_gethost(L)->tripped == SSLUA_TRIP_BUDGET;
}

void sslua_begin_episode (lua_State *L) {
  Host *h = sslua_gethost(L);
  h->episode = 1;
  sslua_reset_limits(L, h);
}

void sslua_end_episode (lua_State *L) {
  Host *h = sslua_gethost(L);
  h->episode = 0;
  sslua_clear_deadline(h);
}

int sslua_call_depth (lua_State *L) { return sslua_gethost(L)->depth; }

int sslua_has_position (const char *msg) {
  /* "chunk:12: ..." on the first line: a colon, digits, a colon and a space */
  for (const char *p = msg; *p != '\0' && *p != '\n'; p++) {
    if (*p != ':') continue;
    const char *q = p + 1;
    while (*q >= '0' && *q <= '9') q++;
    if (q > p + 1 && q[0] == ':' && q[1] == ' ') return 1;
  }
  return 0;
}

void sslua_set_max_output (lua_State *L, long long bytes) {
  sslua_gethost(L)->max_output = bytes < 0 ? 0 : bytes;
}

int sslua_charge_output (lua_State *L, size_t bytes) {
  Host *h = sslua_gethost(L);
  h->output += (long long)bytes;
  return h->max_output == 0 || h->output <= h->max_output;
}
