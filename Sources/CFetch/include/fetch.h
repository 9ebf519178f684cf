/*
** CFetch: one bounded HTTP(S) request through libcurl, for effects and payload URLs: a GET,
** or another method with headers and a body (ssfetch_send_within).
**
** Bounded: the body stops at `max_bytes` (a larger announced length is refused before any
** byte is read), the whole transfer stops at `timeout_ms`, and a cancel flag stops it within
** a fraction of a second. Only http and https are allowed, redirects included (at most 5),
** and a fetch may be held to a list of hosts (a net grant): every URL it connects to, the
** first and each redirect's, is read by libcurl's own URL parser and checked against it.
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
  SSFETCH_FAILED = 9,      /* anything else; `message` says what */
  SSFETCH_NOT_GRANTED = 10, /* a URL (a redirect's) outside the hosts granted; `message` says which */
  SSFETCH_OVER_BUDGET = 11, /* the fetches under way would hold more than the process's budget */
  SSFETCH_BAD_REQUEST = 12, /* the method, a header or the body cannot be sent; `message` says why */
  SSFETCH_BODY_REDIRECT = 13 /* a 307 or 308 would re-send the body to another origin; `message` says where */
};

/* The bodies of all of the process's fetches under way (and results not yet freed) hold at most
** this many bytes together. */
#define SSFETCH_DEFAULT_BUDGET 67108864 /* 64 MiB */

/* A budget fetches share (NULL: the process's). */
typedef struct ssfetch_pool ssfetch_pool;
ssfetch_pool *ssfetch_pool_new(size_t budget);
void ssfetch_pool_free(ssfetch_pool *pool);
/* What the pool's bodies hold now (NULL: the process's). */
size_t ssfetch_pool_held(const ssfetch_pool *pool);

/* The most redirects a fetch follows. */
#define SSFETCH_MAX_REDIRECTS 5

/* The host and port of a URL as libcurl reads it. */
typedef struct ssfetch_authority_t {
  char scheme[8];     /* "http" or "https" */
  char host[256];     /* lower case; an IPv6 address in brackets */
  long port;          /* the URL's, or the scheme's default */
  int explicit_port;  /* whether the URL names its port */
  int bad_scheme;     /* the problem: not http or https */
  char problem[160];  /* why the URL cannot be fetched, when it cannot */
} ssfetch_authority_t;

/* Reads `url` with libcurl's URL parser: 0 and its authority, or -1 and `problem`. */
int ssfetch_authority(const char *url, ssfetch_authority_t *out);

/* Whether `authority` is one of `hosts` ("api.example.com", "*.example.com", "*", each with an
** optional ":port"); `hosts` NULL: any. */
int ssfetch_allows(const ssfetch_authority_t *authority, const char *const *hosts, size_t count);

/* The outcome of one fetch. `body` is malloc'd (NULL when empty); free it with ssfetch_free. */
typedef struct ssfetch_result {
  int outcome;
  long status;
  char *body;
  size_t length;
  size_t held;  /* what the body holds of its pool's budget (released by ssfetch_free) */
  ssfetch_pool *pool;
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

/* As ssfetch_get, connecting only to `hosts` (see ssfetch_allows; NULL: any), the body held to
** `pool`'s budget (NULL: the process's). */
int ssfetch_get_within(const char *url, const char *const *hosts, size_t host_count, size_t max_bytes,
                       long timeout_ms, ssfetch_cancel *cancel, ssfetch_pool *pool, ssfetch_result *out);

/* The most headers a request sends, and the most bytes they hold together ("Name: value" each,
** counted as name + value + 4). */
#define SSFETCH_MAX_HEADERS 64
#define SSFETCH_MAX_HEADER_BYTES 16384

/* What a request sends beyond its URL. Only GET, POST, PUT, PATCH and DELETE (upper case); a GET
** sends no body. Each header line is "Name: value": the name an RFC 9110 token, the value
** without control characters (CR, LF, NUL…) but tab; the host's own headers (Host,
** Content-Length, Transfer-Encoding, Connection, Expect, …) are refused. Nothing is sent that
** the request does not name: no Content-Type is added.
**
** Redirects as browsers follow them (the Fetch standard): a 303, or a 301 or 302 after a POST,
** becomes a GET without the body and its Content-* headers; a 307 or 308 repeats the request,
** body and all, but only to the same origin (scheme, host and port): to another one it fails
** (SSFETCH_BODY_REDIRECT) rather than hand the body to a host the script did not name. A
** redirect to another origin drops Authorization and Cookie. */
typedef struct ssfetch_request {
  const char *method;               /* NULL: GET */
  const char *const *headers;       /* header_count "Name: value" lines */
  size_t header_count;
  const char *body;                 /* body_length bytes (NULL: no body) */
  size_t body_length;
} ssfetch_request;

/* Why `request` cannot be sent, in words (NULL: it can). */
const char *ssfetch_request_problem(const ssfetch_request *request);

/* As ssfetch_get_within, sending `request` (NULL: a GET). */
int ssfetch_send_within(const char *url, const ssfetch_request *request, const char *const *hosts, size_t host_count,
                        size_t max_bytes, long timeout_ms, ssfetch_cancel *cancel, ssfetch_pool *pool,
                        ssfetch_result *out);

/* Frees the body of a result. */
void ssfetch_free(ssfetch_result *result);

#endif
