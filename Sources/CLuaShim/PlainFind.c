/*
** CLuaShim: the search for a plain substring (string.find with `plain`,
** or a pattern without special characters), in linear time.
**
** Short searches and ordinary text go the quick way: memchr for the first
** byte, memcmp for the rest. That is quadratic on near misses ("aaa...ab"
** in "aaa...a"), so the comparisons are counted, and once they outgrow the
** text scanned the search goes on with the two-way algorithm of Crochemore
** and Perrin, which compares each byte of the text at most twice. Every
** path charges about one unit per 16 bytes compared or scanned, and one per
** place tried (a memcmp, a window of the two-way search), in slices, so
** neither the budget nor the deadline has to wait for a long search.
*/
#include <string.h>

#include <lua.h>

#include "patterns.h"

#define uchar(c) ((unsigned char)(c))

/* Bytes scanned by one memchr, or compared by one loop, between charges. */
#define PF_SLICE 65536
/* Counted bytes that make a charge (one unit per 16). */
#define PF_FLUSH 4096

const char *pm_scan_byte (PMMeter *meter, const char *s, int c, size_t n) {
  for (;;) {
    size_t k = (n > PF_SLICE) ? PF_SLICE : n;
    const char *hit = (const char *)memchr(s, c, k);
    if (hit != NULL) {
      pm_spend(meter, ((hit - s) >> 4) + 1);
      return hit;
    }
    pm_spend(meter, (long long)(k >> 4) + 1);
    if (k == n) return NULL;
    s += k;
    n -= k;
  }
}


/*
** {======================================================
** Two-way search
** =======================================================
*/

/*
** Work done so far in sixteenths of a unit, charged in batches: a byte
** compared is a sixteenth, a window tried (shifted or compared) a whole
** unit, as it costs about what a step of the matcher costs.
*/
#define PF_WINDOW 16

typedef struct Tally {
  PMMeter *meter;
  size_t bytes;
} Tally;

static void tally (Tally *t, size_t bytes) {
  t->bytes += bytes;
  if (t->bytes >= PF_FLUSH) {
    pm_spend(t->meter, (long long)(t->bytes >> 4));
    t->bytes &= 15;
  }
}

/* The first i' in [i, m) with x[i'] != y[i'], or m. */
static size_t agree_up (Tally *t, const unsigned char *x, const unsigned char *y,
                        size_t i, size_t m) {
  while (i < m) {
    size_t stop = (m - i > PF_SLICE) ? i + PF_SLICE : m;
    size_t k = i;
    while (k < stop && x[k] == y[k]) k++;
    tally(t, k - i + 1);
    if (k < stop) return k;
    i = k;
  }
  return m;
}

/* The last i' in (lo, i] with x[i'] != y[i'], or lo (indices may be -1). */
static ptrdiff_t agree_down (Tally *t, const unsigned char *x, const unsigned char *y,
                             ptrdiff_t i, ptrdiff_t lo) {
  while (i > lo) {
    ptrdiff_t stop = (i - lo > PF_SLICE) ? i - PF_SLICE : lo;
    ptrdiff_t k = i;
    while (k > stop && x[k] == y[k]) k--;
    tally(t, (size_t)(i - k) + 1);
    if (k > stop) return k;
    i = k;
  }
  return lo;
}

/*
** The maximal suffix of x[0..m) for the byte order (`greater` flips it):
** returns the index before where it starts (-1 for the whole string) and
** sets its period.
*/
static ptrdiff_t max_suffix (const unsigned char *x, ptrdiff_t m, int greater,
                             ptrdiff_t *period) {
  ptrdiff_t before = -1;  /* the suffix starts at before + 1 */
  ptrdiff_t j = 0;        /* the candidate being compared starts at j + 1 */
  ptrdiff_t k = 1;        /* offset being compared */
  ptrdiff_t per = 1;
  while (j + k < m) {
    unsigned char a = x[j + k];
    unsigned char b = x[before + k];
    int smaller = greater ? (a > b) : (a < b);
    if (a == b) {
      if (k == per) {  /* one more period */
        j += per;
        k = 1;
      }
      else
        k++;
    }
    else if (smaller) {  /* the candidate is worse: a longer period */
      j += k;
      k = 1;
      per = j - before;
    }
    else {  /* the candidate is better: it becomes the suffix */
      before = j;
      j = before + 1;
      k = per = 1;
    }
  }
  *period = per;
  return before;
}

/*
** Two-way search for x (length m >= 2) in y (length n >= m). The needle is
** cut at a critical position: the right part is compared left to right,
** then the left part right to left. When the needle is periodic, the part
** known to match after a shift by the period is not compared again. While
** nothing is remembered, the byte under the window's last position can
** shift the window at once (Horspool's rule), which makes ordinary text
** fast; it never skips an occurrence.
*/
static const char *two_way (Tally *t, const char *hay, size_t n,
                            const char *needle, size_t m) {
  const unsigned char *x = (const unsigned char *)needle;
  const unsigned char *y = (const unsigned char *)hay;
  ptrdiff_t lm = (ptrdiff_t)m;
  ptrdiff_t p1, p2, ell, per, memory = -1;
  size_t j = 0, last = n - m;
  unsigned char skip[256];
  size_t i;
  ptrdiff_t a = max_suffix(x, lm, 0, &p1);
  ptrdiff_t b = max_suffix(x, lm, 1, &p2);
  int periodic;
  if (a > b) {
    ell = a;
    per = p1;
  }
  else {
    ell = b;
    per = p2;
  }
  /* distance from each byte's last occurrence to the needle's end */
  memset(skip, m > 255 ? 255 : (int)m, sizeof skip);
  for (i = (m > 255) ? m - 255 : 0; i < m; i++)
    skip[x[i]] = (unsigned char)(m - 1 - i);
  tally(t, m * 4 + 256);  /* two maximal suffixes, the skip table */
  periodic = (per + ell + 1 <= lm) && memcmp(x, x + per, (size_t)ell + 1) == 0;
  if (!periodic)  /* no period to remember: shift past the longer part */
    per = ((ell + 1 > lm - ell - 1) ? ell + 1 : lm - ell - 1) + 1;
  while (j <= last) {
    const unsigned char *w = y + j;
    ptrdiff_t r, from;
    if (memory < 0) {
      size_t shift = skip[w[m - 1]];
      if (shift > 0) {
        tally(t, PF_WINDOW);
        j += shift;
        continue;
      }
    }
    tally(t, PF_WINDOW);
    from = (ell > memory) ? ell + 1 : memory + 1;
    r = (ptrdiff_t)agree_up(t, x, w, (size_t)from, m);
    if (r < lm) {  /* mismatch in the right part */
      j += (size_t)(r - ell);
      memory = -1;
      continue;
    }
    if (agree_down(t, x, w, ell, memory) <= memory)
      return (const char *)w;
    j += (size_t)per;
    memory = periodic ? lm - per - 1 : -1;
  }
  return NULL;
}

/* }====================================================== */


const char *pm_find_plain (PMMeter *meter, const char *hay, size_t n,
                           const char *needle, size_t m) {
  const char *pos = hay, *last;
  size_t compared = 0;
  Tally t;
  if (m == 0) return hay;  /* the empty string is everywhere */
  if (m > n) return NULL;
  if (m == 1) return pm_scan_byte(meter, hay, uchar(needle[0]), n);
  t.meter = meter;
  t.bytes = 0;
  last = hay + (n - m);  /* the last place an occurrence can start */
  while (pos <= last) {
    size_t span = (size_t)(last - pos) + 1;
    const char *at;
    if (span > PF_SLICE) span = PF_SLICE;
    at = (const char *)memchr(pos, uchar(needle[0]), span);
    if (at == NULL) {
      tally(&t, span);
      pos += span;
      continue;
    }
    tally(&t, (size_t)(at - pos) + PF_WINDOW + m);  /* before the memcmp */
    if (memcmp(at + 1, needle + 1, m - 1) == 0) {
      pm_spend(meter, (long long)(t.bytes >> 4));
      return at;
    }
    compared += m;
    pos = at + 1;
    if (compared > 4 * (size_t)(pos - hay) + 1024) {  /* near misses: go linear */
      const char *hit = NULL;
      if (pos <= last)
        hit = two_way(&t, pos, n - (size_t)(pos - hay), needle, m);
      pm_spend(meter, (long long)(t.bytes >> 4));
      return hit;
    }
  }
  pm_spend(meter, (long long)(t.bytes >> 4));
  return NULL;
}
