/*
** Compares the sandbox's pattern functions (CLuaShim, charged) with Lua's own
** (lstrlib.c) on ordinary patterns: nanoseconds per call and the ratio.
**
** Build and run from the package root:
**   cc -O2 -std=c99 $(pkg-config --cflags lua5.4) -ISources/CLuaShim/include \
**      -ISources/CLuaShim Sources/CLuaShim/[A-Z]*.c scripts/bench_patterns.c \
**      -o /tmp/bench_patterns $(pkg-config --libs lua5.4)
**   taskset -c 0 /tmp/bench_patterns
**
** Both sides run inside one sslua_pcall with a budget and a time limit set,
** so our functions really charge (and read the clock every 4096 units).
*/
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>
#include <time.h>

#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

#include "LuaShim.h"

typedef struct Case {
  const char *name;
  const char *fn;      /* find, match, gmatch (iterated to the end) or gsub */
  const char *subject;
  const char *pattern;
  const char *extra;   /* a third argument, or NULL; "upper" = string.upper */
  int plain;           /* a fourth argument true (find) */
} Case;

static const char *text =
    "The quick brown fox jumps over the lazy dog; 42 bytes, then more: "
    "lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do 2024.";

static const Case cases[] = {
  {"find %d+", "find", "order 12345 shipped", "%d+", NULL, 0},
  {"match ^%s*(.-)%s*$", "match", "   hello world   ", "^%s*(.-)%s*$", NULL, 0},
  {"match (%w+)=(%w+)", "match", "name=value", "(%w+)=(%w+)", NULL, 0},
  {"match date captures", "match", "2024-11-23", "(%d+)-(%d+)-(%d+)", NULL, 0},
  {"match ^(.-)%.(%a+)$", "match", "screens/main.lua", "^(.-)%.(%a+)$", NULL, 0},
  {"find [%w_]+", "find", "  some_identifier = 1", "[%w_]+", NULL, 0},
  {"find ^#", "find", "# a comment line", "^#", NULL, 0},
  {"find 'fox' (no specials)", "find", NULL, "fox", NULL, 0},
  {"find ',' plain", "find", NULL, ",", "1", 1},
  {"find 'sed do' plain", "find", NULL, "sed do", "1", 1},
  {"gmatch %a+ (all words)", "gmatch", NULL, "%a+", NULL, 0},
  {"gmatch ([^,]*)", "gmatch", "a,b,,c,dd,eee", "([^,]*)", NULL, 0},
  {"gsub %s+ -> ' '", "gsub", NULL, "%s+", " ", 0},
  {"gsub %w+ -> <%0>", "gsub", "hello world from lua", "%w+", "<%0>", 0},
  {"gsub %a+ -> upper", "gsub", "hello world from lua", "%a+", "upper", 0},
  {"gsub no match", "gsub", NULL, "%%", "x", 0},
};

#define NCASES (int)(sizeof(cases) / sizeof(cases[0]))

static double now (void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Calls the function on top with the case's arguments `n` times. */
static void run_case (lua_State *L, const Case *c, int fn, long n) {
  long i;
  for (i = 0; i < n; i++) {
    int nargs = 2;
    lua_pushvalue(L, fn);
    lua_pushstring(L, c->subject ? c->subject : text);
    lua_pushstring(L, c->pattern);
    if (c->extra != NULL) {
      if (strcmp(c->extra, "upper") == 0)
        lua_getfield(L, lua_upvalueindex(1), "upper");
      else if (strcmp(c->fn, "find") == 0)
        lua_pushinteger(L, 1);
      else
        lua_pushstring(L, c->extra);
      nargs++;
    }
    if (c->plain) {
      lua_pushboolean(L, 1);
      nargs++;
    }
    if (strcmp(c->fn, "gmatch") == 0) {
      lua_call(L, nargs, 1);
      for (;;) {
        lua_pushvalue(L, -1);
        lua_call(L, 0, 1);
        if (lua_isnil(L, -1)) break;
        lua_pop(L, 1);
      }
      lua_pop(L, 2);
    }
    else {
      lua_call(L, nargs, LUA_MULTRET);
      lua_settop(L, fn + 1);  /* keep the two functions */
    }
  }
}

/* Upvalue 1: the real string table; 2: the bounded table. */
static int bench (lua_State *L) {
  int k, round;
  double total_real = 0, total_ours = 0;
  printf("%-28s %10s %10s %7s\n", "case", "lua ns", "ours ns", "ratio");
  for (k = 0; k < NCASES; k++) {
    const Case *c = &cases[k];
    char key[32];
    double best_real = 1e30, best_ours = 1e30;
    long n = 20000;
    lua_settop(L, 0);
    lua_getfield(L, lua_upvalueindex(1), c->fn);  /* 1: Lua's */
    snprintf(key, sizeof key, "string.%s", c->fn);
    lua_getfield(L, lua_upvalueindex(2), key);    /* 2: ours */
    for (round = 0; round < 7; round++) {  /* alternate, keep the best */
      double t0 = now(), t1, t2;
      run_case(L, c, 1, n);
      t1 = now();
      run_case(L, c, 2, n);
      t2 = now();
      if (t1 - t0 < best_real) best_real = t1 - t0;
      if (t2 - t1 < best_ours) best_ours = t2 - t1;
    }
    best_real = best_real / (double)n * 1e9;
    best_ours = best_ours / (double)n * 1e9;
    total_real += best_real;
    total_ours += best_ours;
    printf("%-28s %10.0f %10.0f %7.2f\n", c->name, best_real, best_ours,
           best_ours / best_real);
  }
  printf("%-28s %10.0f %10.0f %7.2f\n", "(sum)", total_real, total_ours,
         total_ours / total_real);
  return 0;
}

int main (void) {
  lua_State *L = sslua_newstate(0, NULL);
  luaL_openlibs(L);
  sslua_set_budget(L, 1000000000000LL);
  sslua_set_time_limit(L, 600000000000LL);
  lua_getglobal(L, "string");
  lua_pushcfunction(L, sslua_open_bounded);
  if (sslua_pcall(L, 0, 1) != LUA_OK) {
    fprintf(stderr, "%s\n", lua_tostring(L, -1));
    return 1;
  }
  lua_pushcclosure(L, bench, 2);
  if (sslua_pcall(L, 0, 0) != LUA_OK) {
    fprintf(stderr, "%s\n", lua_tostring(L, -1));
    return 1;
  }
  sslua_close(L);
  return 0;
}
