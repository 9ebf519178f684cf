/*
** Picture.c: cairo and pango, opened at the first picture (see picture.h).
*/
#include "picture.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "functions.h"

/* The functions, found once by dlsym. */
#define FIELD_R(result, name, parameters, arguments) result(*name) parameters;
#define FIELD_V(name, parameters, arguments) void(*name) parameters;
static struct {
  SSPIC_FUNCTIONS(FIELD_R, FIELD_V, FIELD_R, FIELD_V)
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int opened;
static char failure[200];

static void *find(void *library, const char *name) {
  void *symbol = dlsym(library, name);
  if (symbol == NULL && failure[0] == 0) {
    snprintf(failure, sizeof failure, "libpangocairo-1.0.so.0 has no %s (too old a pango or cairo?)", name);
  }
  return symbol;
}

static void open_once(void) {
  void *library = dlopen("libpangocairo-1.0.so.0", RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    const char *why = dlerror();
    snprintf(failure, sizeof failure,
             "pictures need cairo and pango (%s): install Debian's libpangocairo-1.0-0, e.g. with "
             "scripts/bootstrap.sh",
             why ? why : "libpangocairo-1.0.so.0 not found");
    return;
  }
/* dlsym finds cairo's and GObject's functions too: they are libpangocairo's dependencies. */
#define FIND_R(result, name, parameters, arguments) *(void **)&api.name = find(library, #name);
#define FIND_V(name, parameters, arguments) *(void **)&api.name = find(library, #name);
  SSPIC_FUNCTIONS(FIND_R, FIND_V, FIND_R, FIND_V)
  opened = failure[0] == 0;
  /* The library stays open for the process's life, as a linked one would. */
}

int sspic_open(char *error, size_t error_size) {
  pthread_once(&once, open_once);
  if (!opened && error != NULL && error_size > 0) snprintf(error, error_size, "%s", failure);
  return opened;
}

#define CALL_R(result, name, parameters, arguments) \
  result sspic_##name parameters { return api.name arguments; }
#define CALL_V(name, parameters, arguments) \
  void sspic_##name parameters { api.name arguments; }
SSPIC_FUNCTIONS(CALL_R, CALL_V, CALL_R, CALL_V)
