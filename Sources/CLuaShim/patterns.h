/*
** The pattern matcher of CLuaShim (private): Lua 5.4 patterns, matched by
** a backtracking machine whose every step is charged to the episode.
**
** PatternMatcher.c holds the machine, PlainFind.c the search for a plain
** substring, and LuaPatterns.c the library functions built on both.
*/
#ifndef SENDINGSTATE_PATTERNS_H
#define SENDINGSTATE_PATTERNS_H

#include <stddef.h>

#include <lua.h>

/* Captures a pattern may hold (LUA_MAXCAPTURES, private to lstrlib.c). */
#if defined(LUA_MAXCAPTURES)
#define PM_MAXCAPTURES LUA_MAXCAPTURES
#else
#define PM_MAXCAPTURES 32
#endif

/*
** How deeply continuations may nest. Lua's matcher recurses and allows 200
** nested calls (MAXCCALLS) before it gives up with "pattern too complex";
** the machine keeps one frame per nested call beyond the first, so it fails
** at exactly the same point. Frames live in a scratch block, not on the C
** stack.
*/
#define PM_MAXDEPTH 200
#define PM_MAXFRAMES (PM_MAXDEPTH - 1)

/* The length of a capture that is still open, or that is a position. */
#define PM_CAP_OPEN (-1)
#define PM_CAP_POSITION (-2)

/*
** Work counted locally and charged to the episode in batches: `credit` is
** what is left of the current batch; once it runs out, the batch is charged
** with sslua_charge (which raises when a limit has run out). What a call
** leaves unpaid is added to `owed`, kept from call to call, and charged
** once it makes a batch: a short call does not pay for a charge of its own.
*/
#define PM_BATCH 256

typedef struct PMMeter {
  lua_State *L;
  long long credit;
  long long *owed;
} PMMeter;

/* Charges the steps counted since the last charge (may raise). */
void pm_pay (PMMeter *m);

/* Counts `n` steps; charges once a batch is used up. */
static inline void pm_spend (PMMeter *m, long long n) {
  m->credit -= n;
  if (m->credit <= 0)
    pm_pay(m);
}

/* Starts counting (a fresh batch). */
static inline void pm_meter_init (PMMeter *m, lua_State *L, long long *owed) {
  m->L = L;
  m->credit = PM_BATCH;
  m->owed = owed;
}

/* Before a library function returns: what is unpaid is owed, and charged
** once it makes a batch (may raise). */
static inline void pm_settle (PMMeter *m) {
  *m->owed += PM_BATCH - m->credit;
  m->credit = PM_BATCH;
  if (*m->owed >= PM_BATCH) {
    m->credit = PM_BATCH - *m->owed;
    *m->owed = 0;
    pm_pay(m);
  }
}

typedef struct PMFrame PMFrame;

typedef struct PMCapture {
  const char *init;
  ptrdiff_t len;  /* a length, PM_CAP_OPEN or PM_CAP_POSITION */
} PMCapture;

typedef struct PMState {
  PMMeter meter;
  const char *subject;      /* the whole subject: positions count from here */
  const char *subject_end;
  const char *pattern_end;
  PMFrame *frames;          /* scratch for the backtracking frames */
  int frame_cap;            /* how many frames the scratch holds */
  /* Nested calls Lua's matcher would still allow (its 'matchdepth'):
  ** PM_MAXDEPTH for a fresh match; below 0, no limit (see gmatch). */
  int max_depth;
  int depth;                /* frames in use (at an error: where it was) */
  int level;                /* captures started by the current attempt */
  PMCapture capture[PM_MAXCAPTURES];
} PMState;

/* Bytes of a block for `frames` frames. */
size_t pm_scratch_size (int frames);

/* What the four closures share (upvalue 1): the units they owe, and the
** frames of the machine (PM_MAXFRAMES, in the same block). */
typedef struct PMScratch {
  long long owed;
  PMFrame *frames;
} PMScratch;

/*
** Matches the pattern from `p` (up to pattern_end) at subject position `s`;
** returns the end of the match or NULL. Sets `level` and the captures.
** At most max_depth - 1 frames are used, as Lua allows max_depth nested
** calls ("pattern too complex" beyond); after an error, `depth` tells how
** deep the match was (one more than the frames for "pattern too complex").
** Raises the errors of a malformed pattern as the matcher reaches them.
** Runs no Lua code, so one scratch block serves every call of a state.
*/
const char *pm_match (PMState *ms, const char *s, const char *p);

/*
** The byte every match must start with, when the pattern's first item is
** a plain character that cannot match empty; -1 otherwise. Positions
** without that byte can be skipped: the matcher would fail there at once.
*/
int pm_first_byte (const char *p, const char *pattern_end);

/*
** The first occurrence of needle (length m) in hay (length n), or NULL,
** in linear time, charging about one unit per 16 bytes compared.
*/
const char *pm_find_plain (PMMeter *meter, const char *hay, size_t n,
                           const char *needle, size_t m);

/* memchr in slices, charging one unit per 16 bytes scanned. */
const char *pm_scan_byte (PMMeter *meter, const char *s, int c, size_t n);

#endif
