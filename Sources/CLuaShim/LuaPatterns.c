/*
** CLuaShim: pattern functions with a step budget (find, match, gmatch, gsub).
**
** Lua's own matcher loops in C, where the count hook never fires, so a
** pathological pattern ("a*a*a*...b" over a long subject) or a plain search
** for a near miss could run for ever. These functions behave exactly as
** Lua 5.4's (results, errors, their order) but match with the machine of
** PatternMatcher.c and search with PlainFind.c, which charge every step to
** the episode: the budget and the deadline stop them like any Lua loop.
**
** The four closures share one upvalue: the block where the machine keeps
** its backtracking frames, and the units the calls owe (less than a batch).
** A match runs no Lua code, so one block is enough however the functions
** nest (a gsub callback may call find: gsub's own match has ended by then).
**
** The host sets these four fields of the table it passes: "string.find",
** "string.match", "string.gmatch" and "string.gsub".
*/
#include <ctype.h>
#include <limits.h>
#include <string.h>

#include <lua.h>
#include <lauxlib.h>

#include "LuaShim.h"
#include "patterns.h"

#define uchar(c) ((unsigned char)(c))

/*
** {======================================================
** Shared steps
** =======================================================
*/

/* A 1-based start position from a relative one, clipped to at least 1. */
static size_t start_position (lua_Integer pos, size_t len) {
  if (pos > 0) return (size_t)pos;
  if (pos == 0) return 1;
  if (pos < -(lua_Integer)len) return 1;
  return len + (size_t)pos + 1;
}

/* Whether the pattern has no special character (after a NUL too). */
static int is_plain (const char *p, size_t lp) {
  size_t i;
  for (i = 0; i < lp; i++) {
    switch (p[i]) {
      case '^': case '$': case '*': case '+': case '?':
      case '.': case '(': case '[': case '%': case '-':
        return 0;
      default:
        break;
    }
  }
  return 1;
}

static void prepare (PMState *ms, lua_State *L, PMScratch *sc,
                     const char *s, size_t ls, const char *p, size_t lp) {
  pm_meter_init(&ms->meter, L, &sc->owed);
  ms->frames = sc->frames;
  ms->frame_cap = PM_MAXFRAMES;
  ms->max_depth = PM_MAXDEPTH;
  ms->depth = 0;
  ms->subject = s;
  ms->subject_end = s + ls;
  ms->pattern_end = p + lp;
  ms->level = 0;
}

/*
** Where capture `i` is: sets *text and returns its length, or pushes its
** position and returns PM_CAP_POSITION. With no captures, capture 0 is the
** whole match s..e.
*/
static ptrdiff_t capture_text (PMState *ms, int i, const char *s, const char *e,
                               const char **text) {
  lua_State *L = ms->meter.L;
  ptrdiff_t len;
  if (i >= ms->level) {
    if (i != 0)
      luaL_error(L, "invalid capture index %%%d", i + 1);
    *text = s;
    len = e - s;
  }
  else {
    len = ms->capture[i].len;
    *text = ms->capture[i].init;
    if (len == PM_CAP_OPEN)
      luaL_error(L, "unfinished capture");
    else if (len == PM_CAP_POSITION) {
      lua_pushinteger(L, (*text - ms->subject) + 1);
      return PM_CAP_POSITION;
    }
  }
  pm_spend(&ms->meter, len >> 4);
  return len;
}

static void push_capture (PMState *ms, int i, const char *s, const char *e) {
  const char *text;
  ptrdiff_t len = capture_text(ms, i, s, e, &text);
  if (len != PM_CAP_POSITION)
    lua_pushlstring(ms->meter.L, text, (size_t)len);
}

/* Pushes every capture (the whole match when there is none and `s` is
** given); returns how many. */
static int push_captures (PMState *ms, const char *s, const char *e) {
  int i, n = (ms->level == 0 && s != NULL) ? 1 : ms->level;
  luaL_checkstack(ms->meter.L, n, "too many captures");
  for (i = 0; i < n; i++)
    push_capture(ms, i, s, e);
  return n;
}

/* The shared block of the running closure (upvalue 1). */
static PMScratch *scratch (lua_State *L) {
  return (PMScratch *)lua_touserdata(L, lua_upvalueindex(1));
}

/* }====================================================== */


/*
** {======================================================
** find and match
** =======================================================
*/

static int find_or_match (lua_State *L, int find) {
  size_t ls, lp;
  const char *s = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  size_t init = start_position(luaL_optinteger(L, 3, 1), ls) - 1;
  PMState ms;
  if (init > ls) {  /* starts after the end: nothing to find */
    luaL_pushfail(L);
    return 1;
  }
  prepare(&ms, L, scratch(L), s, ls, p, lp);
  if (find && (lua_toboolean(L, 4) || is_plain(p, lp))) {
    const char *hit = pm_find_plain(&ms.meter, s + init, ls - init, p, lp);
    pm_settle(&ms.meter);
    if (hit != NULL) {
      lua_pushinteger(L, (hit - s) + 1);
      lua_pushinteger(L, (lua_Integer)((size_t)(hit - s) + lp));
      return 2;
    }
  }
  else {
    const char *at = s + init;
    int anchored = (*p == '^');
    int first;
    if (anchored) p++;
    first = anchored ? -1 : pm_first_byte(p, ms.pattern_end);
    for (;;) {
      const char *e;
      if (first >= 0) {  /* only where the first byte is can a match start */
        at = pm_scan_byte(&ms.meter, at, first, (size_t)(ms.subject_end - at));
        if (at == NULL) break;
      }
      ms.level = 0;
      e = pm_match(&ms, at, p);
      if (e != NULL) {
        int n;
        if (find) {
          lua_pushinteger(L, (at - s) + 1);
          lua_pushinteger(L, e - s);
          n = push_captures(&ms, NULL, NULL) + 2;
        }
        else
          n = push_captures(&ms, at, e);
        pm_settle(&ms.meter);
        return n;
      }
      if (anchored || at >= ms.subject_end) break;
      at++;
    }
    pm_settle(&ms.meter);
  }
  luaL_pushfail(L);
  return 1;
}

static int pattern_find (lua_State *L) {
  return find_or_match(L, 1);
}

static int pattern_match (lua_State *L) {
  return find_or_match(L, 0);
}

/* }====================================================== */


/*
** {======================================================
** gmatch
** =======================================================
*/

/* The iterator's state: a full userdata kept as an upvalue. */
typedef struct Iteration {
  size_t next;      /* offset where the next search starts (len + 1: done) */
  size_t lastmatch; /* end offset of the last match, or NO_MATCH_YET */
  const char *pattern;
  int matching;     /* set while the machine runs: still set after an error */
  PMState ms;       /* its max_depth lasts from call to call */
} Iteration;

#define NO_MATCH_YET ((size_t)-1)

/*
** Lua's iterator keeps its matcher's depth counter from call to call, and
** an error inside the matcher skips the steps that would restore it: the
** next calls may nest less deeply, and after "pattern too complex" there
** is no limit at all. The same here: what the failed match used is taken
** from the allowance, and without a limit the frames may need a block of
** their own (never more frames than the pattern has bytes).
*/
static PMFrame *iteration_frames (lua_State *L, Iteration *it, PMScratch *sc) {
  PMState *ms = &it->ms;
  size_t lp = (size_t)(ms->pattern_end - it->pattern);
  PMFrame *frames;
  if (it->matching) {
    int left = ms->max_depth - (ms->depth + 1);
    ms->max_depth = (ms->max_depth < 0 || left < 0) ? -1 : left;
    it->matching = 0;
  }
  if (ms->max_depth >= 0 || lp <= PM_MAXFRAMES) {
    ms->frame_cap = PM_MAXFRAMES;
    return sc->frames;
  }
  if (lp > (size_t)INT_MAX) luaL_error(L, "pattern too complex");
  ms->frame_cap = (int)lp;
  if (lua_getiuservalue(L, lua_upvalueindex(4), 1) != LUA_TUSERDATA) {
    lua_pop(L, 1);
    lua_newuserdatauv(L, pm_scratch_size(ms->frame_cap), 0);
    lua_pushvalue(L, -1);
    lua_setiuservalue(L, lua_upvalueindex(4), 1);
  }
  frames = (PMFrame *)lua_touserdata(L, -1);
  lua_pop(L, 1);  /* the iterator's state keeps it */
  return frames;
}

/* Upvalues: 1 scratch, 2 subject, 3 pattern, 4 state. */
static int gmatch_next (lua_State *L) {
  Iteration *it = (Iteration *)lua_touserdata(L, lua_upvalueindex(4));
  PMState *ms = &it->ms;
  size_t len = (size_t)(ms->subject_end - ms->subject);
  size_t at;
  int first = pm_first_byte(it->pattern, ms->pattern_end);
  PMScratch *sc = scratch(L);
  pm_meter_init(&ms->meter, L, &sc->owed);
  ms->frames = iteration_frames(L, it, sc);
  for (at = it->next; at <= len; at++) {
    const char *e;
    if (first >= 0) {
      const char *hit = pm_scan_byte(&ms->meter, ms->subject + at, first, len - at);
      if (hit == NULL) break;
      at = (size_t)(hit - ms->subject);
    }
    ms->level = 0;
    it->matching = 1;
    e = pm_match(ms, ms->subject + at, it->pattern);
    it->matching = 0;
    if (e != NULL && (size_t)(e - ms->subject) != it->lastmatch) {
      int n;
      it->next = it->lastmatch = (size_t)(e - ms->subject);
      n = push_captures(ms, ms->subject + at, e);
      pm_settle(&ms->meter);
      return n;
    }
  }
  pm_settle(&ms->meter);
  return 0;  /* no more matches */
}

/*
** gmatch(s, pattern [, init]): a '^' is a plain character here (an anchor
** would stop the iteration), and a match may not be empty right where the
** previous one ended.
*/
static int pattern_gmatch (lua_State *L) {
  size_t ls, lp;
  const char *s = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  size_t init = start_position(luaL_optinteger(L, 3, 1), ls) - 1;
  Iteration *it;
  lua_settop(L, 2);  /* the strings stay alive as upvalues */
  it = (Iteration *)lua_newuserdatauv(L, sizeof(Iteration), 1);
  prepare(&it->ms, L, scratch(L), s, ls, p, lp);
  it->matching = 0;
  it->next = (init > ls) ? ls + 1 : init;
  it->lastmatch = NO_MATCH_YET;
  it->pattern = p;
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_rotate(L, 1, 1);  /* scratch, s, p, state */
  lua_pushcclosure(L, gmatch_next, 4);
  return 1;
}

/* }====================================================== */


/*
** {======================================================
** gsub
** =======================================================
*/

/*
** Appends the replacement string r (length lr) for the match s..e:
** "%0" is the match, "%1".."%9" a capture, "%%" a '%'.
*/
static void add_template (PMState *ms, luaL_Buffer *b, const char *s,
                          const char *e, const char *r, size_t lr) {
  lua_State *L = ms->meter.L;
  const char *rend = r + lr;
  pm_spend(&ms->meter, (long long)(lr >> 4) + 1);
  for (;;) {
    const char *esc = (const char *)memchr(r, '%', (size_t)(rend - r));
    int d;
    if (esc == NULL) {
      luaL_addlstring(b, r, (size_t)(rend - r));
      return;
    }
    luaL_addlstring(b, r, (size_t)(esc - r));
    d = uchar(esc[1]);  /* a NUL after a final '%' (strings end with one) */
    if (d == '%')
      luaL_addchar(b, '%');
    else if (d == '0') {
      pm_spend(&ms->meter, (e - s) >> 4);
      luaL_addlstring(b, s, (size_t)(e - s));
    }
    else if (isdigit(d)) {
      const char *text;
      ptrdiff_t len = capture_text(ms, d - '1', s, e, &text);
      if (len == PM_CAP_POSITION)
        luaL_addvalue(b);  /* the position capture pushed */
      else
        luaL_addlstring(b, text, (size_t)len);
    }
    else
      luaL_error(L, "invalid use of '%c' in replacement string", '%');
    r = esc + 2;
  }
}

/*
** Appends the replacement for the match s..e; returns whether the text
** changed (a function or table answering nil or false keeps the match).
*/
static int add_replacement (PMState *ms, luaL_Buffer *b, const char *s,
                            const char *e, int kind, const char *r, size_t lr) {
  lua_State *L = ms->meter.L;
  if (kind == LUA_TFUNCTION) {
    int n;
    lua_pushvalue(L, 3);
    n = push_captures(ms, s, e);
    lua_call(L, n, 1);
  }
  else if (kind == LUA_TTABLE) {
    push_capture(ms, 0, s, e);
    lua_gettable(L, 3);
  }
  else {
    add_template(ms, b, s, e, r, lr);
    return 1;
  }
  if (!lua_toboolean(L, -1)) {  /* keep the original text */
    lua_pop(L, 1);
    pm_spend(&ms->meter, (e - s) >> 4);
    luaL_addlstring(b, s, (size_t)(e - s));
    return 0;
  }
  if (!lua_isstring(L, -1))
    return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
  pm_spend(&ms->meter, (long long)(lua_rawlen(L, -1) >> 4));
  luaL_addvalue(b);
  return 1;
}

static int pattern_gsub (lua_State *L) {
  size_t ls, lp, lr = 0;
  const char *src = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  const char *lastmatch = NULL;  /* where the last match ended */
  const char *r = NULL;          /* a replacement string */
  int kind = lua_type(L, 3);
  lua_Integer max_n = luaL_optinteger(L, 4, (lua_Integer)ls + 1);
  int anchored = (*p == '^');
  int first, changed = 0;
  lua_Integer n = 0;
  PMState ms;
  luaL_Buffer b;
  luaL_argexpected(L, kind == LUA_TNUMBER || kind == LUA_TSTRING ||
                   kind == LUA_TFUNCTION || kind == LUA_TTABLE, 3,
                   "string/function/table");
  if (kind == LUA_TNUMBER || kind == LUA_TSTRING)
    r = lua_tolstring(L, 3, &lr);
  luaL_buffinit(L, &b);
  if (anchored) {
    p++;
    lp--;
  }
  prepare(&ms, L, scratch(L), src, ls, p, lp);
  first = anchored ? -1 : pm_first_byte(p, ms.pattern_end);
  while (n < max_n) {
    const char *e;
    if (first >= 0 && (src == ms.subject_end || uchar(*src) != first)) {
      /* no match can start before the next `first`: copy up to there */
      const char *hit = pm_scan_byte(&ms.meter, src, first,
                                     (size_t)(ms.subject_end - src));
      const char *upto = (hit != NULL) ? hit : ms.subject_end;
      luaL_addlstring(&b, src, (size_t)(upto - src));
      src = upto;
      if (hit == NULL) break;
    }
    ms.level = 0;
    e = pm_match(&ms, src, p);
    if (e != NULL && e != lastmatch) {
      n++;
      changed = add_replacement(&ms, &b, src, e, kind, r, lr) | changed;
      src = lastmatch = e;
    }
    else if (src < ms.subject_end)  /* no match here: keep one byte */
      luaL_addchar(&b, *src++);
    else
      break;
    if (anchored) break;
  }
  pm_spend(&ms.meter, (ms.subject_end - src) >> 4);
  pm_settle(&ms.meter);
  if (!changed)
    lua_pushvalue(L, 1);  /* the subject itself */
  else {
    luaL_addlstring(&b, src, (size_t)(ms.subject_end - src));
    luaL_pushresult(&b);
  }
  lua_pushinteger(L, n);
  return 2;
}

/* }====================================================== */


void sslua_add_pattern_functions (lua_State *L, int idx) {
  static const luaL_Reg functions[] = {
    {"string.find", pattern_find},
    {"string.match", pattern_match},
    {"string.gmatch", pattern_gmatch},
    {"string.gsub", pattern_gsub},
    {NULL, NULL}
  };
  const luaL_Reg *f;
  PMScratch *sc;
  idx = lua_absindex(L, idx);
  sc = (PMScratch *)lua_newuserdatauv(L, sizeof(PMScratch) +
                                      pm_scratch_size(PM_MAXFRAMES), 0);
  sc->owed = 0;
  sc->frames = (PMFrame *)(void *)(sc + 1);  /* the frames follow */
  for (f = functions; f->name != NULL; f++) {
    lua_pushvalue(L, -1);
    lua_pushcclosure(L, f->func, 1);
    lua_setfield(L, idx, f->name);
  }
  lua_pop(L, 1);
}
