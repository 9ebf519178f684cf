/*
** CFetch: one bounded HTTP(S) GET through libcurl, for effects and payload URLs.
**
** Bounded: the body stops at `max_bytes` (a larger announced length is refused before any
** byte is read), the whole transfer stops at `timeout_ms`, and a cancel flag stops it within
** a fraction of a second. Only http and https are allowed, redirects included (at most 5).
** The call blocks: run it on a thread of its own.
*/
#ifndef SENDINGSTATE_FETCH_H
#define SENDINGSTATE_FETCH_H

#include <stddef.h>

/* How a fetch ended. */
enum {
  SSFETCH_OK = 0,          /* a response arrived whole (any HTTP status) */
  SSFETCH_TOO_LARGE = 1,   /* the body passed max_bytes (announced or sent) */
  SSFETCH_TIMED_OUT = 2,   /* timeout_ms passed */
  SSFETCH_CANCELLED = 3,   /* the cancel flag was set */
  SSFETCH_CONNECT = 4,     /* nothing answered at the host and port */
  SSFETCH_RESOLVE = 5,     /* the host name does not resolve */
  SSFETCH_TLS = 6,         /* the TLS handshake or the certificate failed */
  SSFETCH_SCHEME = 7,      /* not http or https (a redirect included) */
  SSFETCH_REDIRECTS = 8,   /* more than 5 redirects */
  SSFETCH_FAILED = 9       /* anything else; `message` says what */
};

/* The outcome of one fetch. `body` is malloc'd (NULL when empty); free it with ssfetch_free. */
typedef struct ssfetch_result {
  int outcome;
  long status;
  char *body;
  size_t length;
  char message[256];
} ssfetch_result;

/* A flag another thread sets to stop a fetch. */
typedef struct ssfetch_cancel ssfetch_cancel;

ssfetch_cancel *ssfetch_cancel_new(void);
void ssfetch_cancel_set(ssfetch_cancel *flag);
void ssfetch_cancel_free(ssfetch_cancel *flag);

/* GETs `url`; fills `out` and returns its outcome. `cancel` may be NULL. */
int ssfetch_get(const char *url, size_t max_bytes, long timeout_ms, ssfetch_cancel *cancel,
                ssfetch_result *out);

/* Frees the body of a result. */
void ssfetch_free(ssfetch_result *result);

#endif
