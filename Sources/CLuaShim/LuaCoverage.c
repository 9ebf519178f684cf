/*
** CLuaShim: line coverage of a state's script files (`sendingstate test --coverage`).
**
** Off by default: no hook runs for it. Once sslua_coverage_start is called, the limits' hook
** (LuaLimits.c) also takes line events, in every thread the state arms, and each event of a
** function whose chunk is a file ("@path") adds one to that (file, line). The host's own code
** ("=name" chunks: the kernel, the prelude) is never counted, nor are chunks a script built
** with `load` (the sandbox names them "@file.lua:12 (load ...)": no file holds their text).
** Bounded, outside the Lua heap: at most SS_COVERAGE_FILES files, lines up to
** SS_COVERAGE_LINES and SS_COVERAGE_BYTES of counts (beyond, nothing more is counted). Which lines could run at all is not known
** here: the reader of the counts decides that (see SpecCoverage.swift).
*/
#include <stdlib.h>
#include <string.h>

#include <lua.h>

#include "host.h"

#define SS_COVERAGE_FILES 4096
#define SS_COVERAGE_LINES (1 << 20)
#define SS_COVERAGE_BYTES ((size_t)64 << 20)  /* all files' counts together */

typedef struct CoverageFile {
  char *name;              /* the chunk's source without its '@' */
  const char *seen;        /* the source string Lua last handed us for it (a cache key) */
  long long *hits;         /* hits by line; index 0 unused */
  int size;                /* entries in hits */
} CoverageFile;

struct SSCoverage {
  CoverageFile *files;
  int count, capacity;
  int last;                /* the file of the last event (runs stay in one file) */
  size_t bytes;            /* the counts' memory, all files */
};

int sslua_coverage_start (lua_State *L) {
  Host *h = sslua_gethost(L);
  if (h->coverage == NULL) {
    h->coverage = (SSCoverage *)calloc(1, sizeof(SSCoverage));
    if (h->coverage == NULL) return 0;
    h->coverage->last = -1;
  }
  sslua_arm_hook(L, h);
  return 1;
}

int sslua_coverage_on (lua_State *L) { return sslua_gethost(L)->coverage != NULL; }

void sslua_coverage_free (SSCoverage *c) {
  if (c == NULL) return;
  for (int i = 0; i < c->count; i++) {
    free(c->files[i].name);
    free(c->files[i].hits);
  }
  free(c->files);
  free(c);
}

/* The file named `source` ("@path"), added when new; NULL without memory. */
static CoverageFile *file_of (SSCoverage *c, const char *source) {
  const char *name = source + 1;
  if (c->last >= 0) {
    CoverageFile *f = &c->files[c->last];
    /* (The same pointer can be a new string once the old chunk is collected: compare.) */
    if (f->seen == source && strcmp(f->name, name) == 0) return f;
  }
  for (int i = 0; i < c->count; i++) {
    CoverageFile *f = &c->files[i];
    if (strcmp(f->name, name) == 0) {
      f->seen = source;
      c->last = i;
      return f;
    }
  }
  if (c->count >= SS_COVERAGE_FILES) return NULL;
  if (c->count == c->capacity) {
    int capacity = c->capacity > 0 ? c->capacity * 2 : 8;
    CoverageFile *files = (CoverageFile *)realloc(c->files, (size_t)capacity * sizeof(CoverageFile));
    if (files == NULL) return NULL;
    c->files = files;
    c->capacity = capacity;
  }
  char *copy = (char *)malloc(strlen(name) + 1);
  if (copy == NULL) return NULL;
  strcpy(copy, name);
  CoverageFile *f = &c->files[c->count];
  f->name = copy;
  f->seen = source;
  f->hits = NULL;
  f->size = 0;
  c->last = c->count++;
  return f;
}

void sslua_coverage_line (lua_State *L, Host *h, lua_Debug *ar) {
  SSCoverage *c = h->coverage;
  int line = ar->currentline;
  if (c == NULL || line <= 0 || line >= SS_COVERAGE_LINES || !lua_getinfo(L, "S", ar) || ar->source[0] != '@') return;
  size_t length = strlen(ar->source);
  if (length > 0 && ar->source[length - 1] == ')' && strstr(ar->source, " (load") != NULL) return;
  CoverageFile *f = file_of(c, ar->source);
  if (f == NULL) return;
  if (line >= f->size) {
    int size = f->size > 0 ? f->size : 64;
    while (size <= line) size *= 2;
    size_t more = (size_t)(size - f->size) * sizeof(long long);
    if (c->bytes + more > SS_COVERAGE_BYTES) return;
    long long *hits = (long long *)realloc(f->hits, (size_t)size * sizeof(long long));
    if (hits == NULL) return;
    memset(hits + f->size, 0, (size_t)(size - f->size) * sizeof(long long));
    f->hits = hits;
    f->size = size;
    c->bytes += more;
  }
  f->hits[line]++;
}

int sslua_coverage_file_count (lua_State *L) {
  SSCoverage *c = sslua_gethost(L)->coverage;
  return c == NULL ? 0 : c->count;
}

const char *sslua_coverage_file_name (lua_State *L, int index) {
  SSCoverage *c = sslua_gethost(L)->coverage;
  return c == NULL || index < 0 || index >= c->count ? NULL : c->files[index].name;
}

const long long *sslua_coverage_file_hits (lua_State *L, int index, int *size) {
  SSCoverage *c = sslua_gethost(L)->coverage;
  if (c == NULL || index < 0 || index >= c->count) {
    *size = 0;
    return NULL;
  }
  *size = c->files[index].size;
  return c->files[index].hits;
}
