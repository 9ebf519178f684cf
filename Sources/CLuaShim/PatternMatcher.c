/*
** CLuaShim: the pattern machine (see patterns.h).
**
** Lua 5.4 patterns, with the exact behaviour of lstrlib.c (the order in
** which alternatives are tried, which errors are raised and when, how
** deeply a match may nest), but written as a loop over an explicit stack
** of backtracking frames instead of C recursion:
**
**  - walking forward, each item either fails (then the machine backtracks),
**    or consumes input and goes on; items with a choice (an optional item,
**    a greedy or lazy repetition) and items that change the captures push
**    a frame that says how to undo them or what to try next;
**  - backtracking pops frames, undoing capture changes, until a frame with
**    an untried alternative resumes the forward walk;
**  - reaching the end of the pattern is a match: the frames are dropped.
**
** Lua's matcher makes one nested C call where this machine pushes a frame,
** so its limit of nested calls is the limit of frames here, and a pattern
** is "too complex" exactly when it would be for Lua. Every forward step,
** every character tested by a repetition or a balance and every backtrack
** is counted by the meter, which charges the episode in batches.
*/
#include <ctype.h>
#include <string.h>

#include <lua.h>
#include <lauxlib.h>

#include "LuaShim.h"
#include "patterns.h"

#define uchar(c) ((unsigned char)(c))

/* Characters tested between two looks at the meter in long scans. */
#define PM_SLICE 4096


/*
** {======================================================
** The meter
** =======================================================
*/

void pm_pay (PMMeter *m) {
  long long used = PM_BATCH - m->credit;
  m->credit = PM_BATCH;
  sslua_charge(m->L, used);
}

/* }====================================================== */


/*
** {======================================================
** Single-character items: '.', '%x', '[set]' and plain bytes
** =======================================================
*/

/*
** Whether byte `c` belongs to class letter `cl` (a lower-case letter names
** the class, an upper-case one its complement); any other character after
** '%' stands for itself. The classes are the C library's, as in Lua.
*/
static int class_has (int c, int cl) {
  int in;
  switch (cl) {
    case 'a': case 'A': in = isalpha(c); break;
    case 'c': case 'C': in = iscntrl(c); break;
    case 'd': case 'D': in = isdigit(c); break;
    case 'g': case 'G': in = isgraph(c); break;
    case 'l': case 'L': in = islower(c); break;
    case 'p': case 'P': in = ispunct(c); break;
    case 's': case 'S': in = isspace(c); break;
    case 'u': case 'U': in = isupper(c); break;
    case 'w': case 'W': in = isalnum(c); break;
    case 'x': case 'X': in = isxdigit(c); break;
    case 'z': case 'Z': in = (c == 0); break;  /* deprecated, still there */
    default: return cl == c;
  }
  return (cl >= 'a') ? (in != 0) : (in == 0);
}

/*
** Whether byte `c` belongs to the set that opens with the '[' at `p` and
** closes with the ']' at `close`. Members are escapes ('%' and a class or
** a character), ranges ("a-z", when something follows the '-' before the
** closing bracket) and single bytes; a leading '^' complements the set.
*/
static int set_has (int c, const char *p, const char *close) {
  int inside = 1;  /* what a member that holds `c` means */
  p++;
  if (*p == '^') {
    inside = 0;
    p++;
  }
  while (p < close) {
    if (*p == '%') {
      if (class_has(c, uchar(p[1]))) return inside;
      p += 2;
    }
    else if (p[1] == '-' && p + 2 < close) {
      if (uchar(p[0]) <= c && c <= uchar(p[2])) return inside;
      p += 3;
    }
    else {
      if (uchar(*p) == c) return inside;
      p++;
    }
  }
  return !inside;
}

/*
** The end of the single-character item at `p` (where its suffix would be).
** A set's first member may be a ']'; an escaped character never closes it.
** Sets are scanned each time the item is met, as Lua does: that work is
** counted too.
*/
static const char *item_end (PMState *ms, const char *p) {
  const char *pend = ms->pattern_end;
  if (*p == '%') {
    if (p + 1 >= pend)
      luaL_error(ms->meter.L, "malformed pattern (ends with '%%')");
    return p + 2;
  }
  if (*p == '[') {
    const char *q = p + 1;
    if (*q == '^') q++;
    for (;;) {  /* one member at a time, then look for the ']' */
      if (q >= pend)
        luaL_error(ms->meter.L, "malformed pattern (missing ']')");
      q += (*q == '%' && q + 1 < pend) ? 2 : 1;
      if (*q == ']') break;
    }
    pm_spend(&ms->meter, (q - p) >> 4);
    return q + 1;
  }
  return p + 1;
}

/* Whether the item p..ep matches the byte at `s` (never past the end). */
static int single (PMState *ms, const char *s, const char *p, const char *ep) {
  int c;
  if (s >= ms->subject_end) return 0;
  c = uchar(*s);
  switch (*p) {
    case '.': return 1;
    case '%': return class_has(c, uchar(p[1]));
    case '[':
      pm_spend(&ms->meter, (ep - p) >> 4);
      return set_has(c, p, ep - 1);
    default: return uchar(*p) == c;
  }
}

/* The first position in [s, stop) that the item p..ep does not match. */
static const char *run_slice (const char *s, const char *stop,
                              const char *p, const char *ep) {
  switch (*p) {
    case '.':
      return stop;
    case '%': {
      int cl = uchar(p[1]);
      while (s < stop && class_has(uchar(*s), cl)) s++;
      return s;
    }
    case '[':
      while (s < stop && set_has(uchar(*s), p, ep - 1)) s++;
      return s;
    default: {
      char c = *p;
      while (s < stop && *s == c) s++;
      return s;
    }
  }
}

/*
** How many times in a row the item p..ep matches from `s`: one unit per
** character tested (and more for long sets), charged slice by slice.
*/
static const char *run_end (PMState *ms, const char *s, const char *p,
                            const char *ep) {
  const char *end = ms->subject_end;
  long long unit = 1 + ((*p == '[') ? (ep - p) >> 4 : 0);
  for (;;) {
    const char *stop = (end - s > PM_SLICE) ? s + PM_SLICE : end;
    const char *q = run_slice(s, stop, p, ep);
    pm_spend(&ms->meter, (q - s + 1) * unit);
    if (q < stop || stop == end) return q;
    s = q;
  }
}

/* }====================================================== */


/*
** {======================================================
** Items that are not single characters: %b, %f, %1-%9, captures
** =======================================================
*/

/*
** %bxy at `s`: an x, then text up to the y that balances it. `p` points
** after "%b". Returns the end of the balanced text, or NULL.
*/
static const char *balanced (PMState *ms, const char *s, const char *p) {
  const char *end = ms->subject_end;
  int open, close, nesting = 1;
  if (p + 1 >= ms->pattern_end)
    luaL_error(ms->meter.L, "malformed pattern (missing arguments to '%%b')");
  if (s >= end || *s != *p) return NULL;
  open = *p;
  close = p[1];
  s++;
  while (s < end) {
    const char *stop = (end - s > PM_SLICE) ? s + PM_SLICE : end;
    const char *from = s;
    for (; s < stop; s++) {
      if (*s == close) {  /* tested first: x and y may be the same */
        if (--nesting == 0) {
          pm_spend(&ms->meter, s - from + 1);
          return s + 1;
        }
      }
      else if (*s == open)
        nesting++;
    }
    pm_spend(&ms->meter, s - from);
  }
  return NULL;
}

/*
** %f[set] at `s`: the previous byte (a NUL at the start of the subject) is
** outside the set and the current one (a NUL at its end) is inside. `p`
** points after "%f". Returns the rest of the pattern, or NULL.
*/
static const char *frontier (PMState *ms, const char *s, const char *p) {
  const char *ep;
  int before, here;
  if (*p != '[')
    luaL_error(ms->meter.L, "missing '[' after '%%f' in pattern");
  ep = item_end(ms, p);
  before = (s == ms->subject) ? 0 : uchar(s[-1]);
  here = (s < ms->subject_end) ? uchar(*s) : 0;
  pm_spend(&ms->meter, (ep - p) >> 3);
  if (set_has(before, p, ep - 1) || !set_has(here, p, ep - 1))
    return NULL;
  return ep;
}

/*
** %1-%9 at `s`: the same text as a closed capture. A position capture
** never matches (as in Lua: its length is not a length).
*/
static const char *same_text (PMState *ms, const char *s, int digit) {
  int l = digit - '1';
  size_t len;
  if (l < 0 || l >= ms->level || ms->capture[l].len == PM_CAP_OPEN)
    luaL_error(ms->meter.L, "invalid capture index %%%d", l + 1);
  len = (size_t)ms->capture[l].len;
  if ((size_t)(ms->subject_end - s) < len) return NULL;
  pm_spend(&ms->meter, (long long)(len >> 4));
  if (memcmp(ms->capture[l].init, s, len) != 0) return NULL;
  return s + len;
}

/* The innermost capture still open: the one a ')' closes. */
static int innermost_open (PMState *ms) {
  int l;
  for (l = ms->level - 1; l >= 0; l--)
    if (ms->capture[l].len == PM_CAP_OPEN) return l;
  return luaL_error(ms->meter.L, "invalid pattern capture");
}

/* }====================================================== */


/*
** {======================================================
** The machine
** =======================================================
*/

enum FrameKind {
  FR_OPEN,   /* a capture was opened: close the level on the way back */
  FR_CLOSE,  /* a capture was closed: reopen it on the way back */
  FR_ONCE,   /* 'x?' took the x: try again without it */
  FR_MOST,   /* 'x*' or 'x+': try again with one repetition fewer */
  FR_LEAST   /* 'x-': try again with one repetition more */
};

struct PMFrame {
  const char *s;     /* ONCE: where x was; MOST, LEAST: end of this try */
  const char *lo;    /* MOST: end of the fewest repetitions allowed */
  const char *item;  /* LEAST: the repeated item */
  const char *next;  /* ONCE, MOST, LEAST: the rest of the pattern */
  int kind;
  int cap;           /* CLOSE: the capture */
};

size_t pm_scratch_size (int frames) {
  return sizeof(PMFrame) * (size_t)frames;
}

/* Raises "pattern too complex", counting the call Lua would have made. */
static void too_complex (PMState *ms) {
  ms->depth++;
  luaL_error(ms->meter.L, "pattern too complex");
}

/* A new frame on top, unless the match would nest deeper than Lua allows. */
static PMFrame *push (PMState *ms, int kind) {
  PMFrame *f;
  if ((ms->max_depth >= 0 && ms->depth + 1 >= ms->max_depth) ||
      ms->depth >= ms->frame_cap)  /* (a pattern needs fewer frames than bytes) */
    too_complex(ms);
  f = &ms->frames[ms->depth++];
  f->kind = kind;
  return f;
}

int pm_first_byte (const char *p, const char *pattern_end) {
  if (p >= pattern_end) return -1;
  switch (*p) {
    case '(': case ')': case '%': case '[': case '.':
      return -1;
    case '$':
      if (p + 1 == pattern_end) return -1;
      break;
    default:
      break;
  }
  if (p + 1 < pattern_end && (p[1] == '*' || p[1] == '?' || p[1] == '-'))
    return -1;  /* it may match nothing */
  return uchar(*p);
}

const char *pm_match (PMState *ms, const char *s, const char *p) {
  const char *const pend = ms->pattern_end;
  ms->depth = 0;  /* frames in use (the attempt itself is one call) */
  if (ms->max_depth == 0) {
    ms->depth = -1;
    too_complex(ms);
  }
  for (;;) {
    const char *ep;
    PMFrame *f;
    pm_spend(&ms->meter, 1);
    if (p == pend) return s;  /* the whole pattern matched */
    switch (*p) {
      case '(': {
        PMCapture *cap;
        if (ms->level >= PM_MAXCAPTURES)
          luaL_error(ms->meter.L, "too many captures");
        cap = &ms->capture[ms->level++];
        cap->init = s;
        if (p[1] == ')') {  /* a position */
          cap->len = PM_CAP_POSITION;
          p += 2;
        }
        else {
          cap->len = PM_CAP_OPEN;
          p++;
        }
        push(ms, FR_OPEN);
        continue;
      }
      case ')': {
        int l = innermost_open(ms);
        f = push(ms, FR_CLOSE);
        f->cap = l;
        ms->capture[l].len = s - ms->capture[l].init;
        p++;
        continue;
      }
      case '$':
        if (p + 1 != pend) break;  /* not last: a plain '$' */
        if (s == ms->subject_end) return s;
        goto backtrack;
      case '%':
        switch (p[1]) {
          case 'b':
            s = balanced(ms, s, p + 2);
            if (s == NULL) goto backtrack;
            p += 4;
            continue;
          case 'f':
            p = frontier(ms, s, p + 2);
            if (p == NULL) goto backtrack;
            continue;
          case '0': case '1': case '2': case '3': case '4':
          case '5': case '6': case '7': case '8': case '9':
            s = same_text(ms, s, uchar(p[1]));
            if (s == NULL) goto backtrack;
            p += 2;
            continue;
          default:
            break;  /* a class or an escaped character */
        }
        break;
      default:
        break;
    }
    /* A single-character item, maybe with a suffix. */
    ep = item_end(ms, p);
    if (!single(ms, s, p, ep)) {
      if (*ep == '*' || *ep == '?' || *ep == '-') {  /* none is enough */
        p = ep + 1;
        continue;
      }
      goto backtrack;
    }
    switch (*ep) {
      case '?':  /* take it; on failure, go on without it */
        f = push(ms, FR_ONCE);
        f->s = s;
        f->next = ep + 1;
        s++;
        p = ep + 1;
        continue;
      case '+':  /* as many as possible, at least one */
      case '*': {  /* as many as possible */
        const char *lo = (*ep == '+') ? s + 1 : s;
        const char *hi = run_end(ms, s + 1, p, ep);
        f = push(ms, FR_MOST);
        f->lo = lo;
        f->s = hi;
        f->next = ep + 1;
        s = hi;
        p = ep + 1;
        continue;
      }
      case '-':  /* as few as possible: none first */
        f = push(ms, FR_LEAST);
        f->s = s;
        f->item = p;
        f->next = ep + 1;
        p = ep + 1;
        continue;
      default:  /* exactly one */
        s++;
        p = ep;
        continue;
    }
  backtrack:
    for (;;) {
      if (ms->depth == 0) return NULL;
      pm_spend(&ms->meter, 1);
      f = &ms->frames[ms->depth - 1];
      if (f->kind == FR_MOST) {
        if (f->s > f->lo) {
          s = --f->s;
          p = f->next;
          break;
        }
      }
      else if (f->kind == FR_LEAST) {
        if (single(ms, f->s, f->item, f->next - 1)) {
          s = ++f->s;
          p = f->next;
          break;
        }
      }
      else if (f->kind == FR_ONCE) {
        s = f->s;
        p = f->next;
        ms->depth--;
        break;
      }
      else if (f->kind == FR_OPEN)
        ms->level--;
      else
        ms->capture[f->cap].len = PM_CAP_OPEN;
      ms->depth--;
    }
  }
}

/* }====================================================== */
