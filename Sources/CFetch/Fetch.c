/*
** Fetch.c: a bounded request (a GET, or another method with headers and a body) through
** libcurl's easy interface (see fetch.h).
**
** libcurl is opened with dlopen at the first fetch, not linked: linked, it and the ~25 shared
** objects it needs (TLS, LDAP, Kerberos, SSH, RTMP, IDN) were loaded and relocated by every
** start of the CLI, most of which never fetch. Only its header is used at build time.
*/
#define _POSIX_C_SOURCE 200809L
#include "fetch.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct ssfetch_cancel {
  int set;  /* read and written with __atomic builtins only */
};

ssfetch_cancel *ssfetch_cancel_new(void) { return calloc(1, sizeof(ssfetch_cancel)); }

void ssfetch_cancel_set(ssfetch_cancel *flag) { __atomic_store_n(&flag->set, 1, __ATOMIC_RELEASE); }

void ssfetch_cancel_free(ssfetch_cancel *flag) { free(flag); }

static int is_cancelled(ssfetch_cancel *flag) {
  return flag != NULL && __atomic_load_n(&flag->set, __ATOMIC_ACQUIRE);
}

/* The body as it arrives, and whether a limit stopped it. */
typedef struct Transfer {
  char *body;
  size_t length;
  size_t capacity;
  size_t max_bytes;
  int too_large;
  int over_budget;  /* the pool's fetches together would hold more than its budget */
  ssfetch_cancel *cancel;
  ssfetch_pool *pool;
} Transfer;

/* What the bodies of the transfers of a pool hold, and the most they may: a script may start
** many fetches, each under max_bytes, and their buffers live outside the Lua heap. The process
** has one pool; tests make their own. Read and written with __atomic builtins only. */
struct ssfetch_pool {
  size_t held;
  size_t budget;
};

static ssfetch_pool process_pool = {0, (size_t)SSFETCH_DEFAULT_BUDGET};

ssfetch_pool *ssfetch_pool_new(size_t budget) {
  ssfetch_pool *pool = calloc(1, sizeof *pool);
  if (pool != NULL) pool->budget = budget;
  return pool;
}

void ssfetch_pool_free(ssfetch_pool *pool) { free(pool); }

size_t ssfetch_pool_held(const ssfetch_pool *pool) {
  return __atomic_load_n(&(pool ? pool : &process_pool)->held, __ATOMIC_RELAXED);
}

/* Takes `bytes` from the pool's budget; 0 when that would pass it. */
static int reserve(ssfetch_pool *pool, size_t bytes) {
  size_t now = __atomic_add_fetch(&pool->held, bytes, __ATOMIC_RELAXED);
  if (now > pool->budget) {
    __atomic_sub_fetch(&pool->held, bytes, __ATOMIC_RELAXED);
    return 0;
  }
  return 1;
}

static void release(ssfetch_pool *pool, size_t bytes) {
  if (pool != NULL) __atomic_sub_fetch(&pool->held, bytes, __ATOMIC_RELAXED);
}

/* libcurl's write callback: keeps at most max_bytes; returning less than given aborts. */
static size_t on_data(char *data, size_t size, size_t count, void *context) {
  Transfer *transfer = context;
  size_t bytes = size * count;
  if (is_cancelled(transfer->cancel)) return 0;
  if (bytes > transfer->max_bytes - transfer->length) {
    transfer->too_large = 1;
    return 0;
  }
  if (transfer->length + bytes > transfer->capacity) {
    size_t capacity = transfer->capacity ? transfer->capacity : 16384;
    while (capacity < transfer->length + bytes) capacity *= 2;
    if (capacity > transfer->max_bytes) capacity = transfer->max_bytes;
    if (!reserve(transfer->pool, capacity - transfer->capacity)) {
      transfer->over_budget = 1;
      return 0;
    }
    char *grown = realloc(transfer->body, capacity);
    if (grown == NULL) {
      release(transfer->pool, capacity - transfer->capacity);
      return 0;
    }
    transfer->body = grown;
    transfer->capacity = capacity;
  }
  memcpy(transfer->body + transfer->length, data, bytes);
  transfer->length += bytes;
  return bytes;
}

/* libcurl's progress callback (often during a transfer, at least once a second when idle). */
static int on_progress(void *context, curl_off_t total, curl_off_t now, curl_off_t up_total,
                       curl_off_t up_now) {
  (void)total, (void)now, (void)up_total, (void)up_now;
  return is_cancelled(((Transfer *)context)->cancel);
}

/* The libcurl functions used, found once by dlsym. */
static struct {
  CURLcode (*global_init)(long flags);
  CURL *(*easy_init)(void);
  CURLcode (*easy_setopt)(CURL *curl, CURLoption option, ...);
  CURLcode (*easy_perform)(CURL *curl);
  CURLcode (*easy_getinfo)(CURL *curl, CURLINFO info, ...);
  void (*easy_cleanup)(CURL *curl);
  const char *(*easy_strerror)(CURLcode code);
  CURLU *(*url)(void);
  CURLUcode (*url_set)(CURLU *handle, CURLUPart part, const char *content, unsigned int flags);
  CURLUcode (*url_get)(const CURLU *handle, CURLUPart part, char **content, unsigned int flags);
  void (*url_cleanup)(CURLU *handle);
  void (*free)(void *p);
  struct curl_slist *(*slist_append)(struct curl_slist *list, const char *line);
  void (*slist_free_all)(struct curl_slist *list);
} curl;

/* Why libcurl could not be opened (empty once it is). */
static char load_error[200];

static pthread_once_t global_once = PTHREAD_ONCE_INIT;

static void *find(void *library, const char *name) {
  void *symbol = dlsym(library, name);
  if (symbol == NULL && load_error[0] == 0) {
    snprintf(load_error, sizeof load_error, "libcurl.so.4 has no %s (too old a libcurl?)", name);
  }
  return symbol;
}

static void global_init(void) {
  void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    const char *why = dlerror();
    snprintf(load_error, sizeof load_error,
             "fetches need libcurl (%s): install Debian's libcurl4, e.g. with scripts/bootstrap.sh",
             why ? why : "libcurl.so.4 not found");
    return;
  }
  *(void **)&curl.global_init = find(library, "curl_global_init");
  *(void **)&curl.easy_init = find(library, "curl_easy_init");
  *(void **)&curl.easy_setopt = find(library, "curl_easy_setopt");
  *(void **)&curl.easy_perform = find(library, "curl_easy_perform");
  *(void **)&curl.easy_getinfo = find(library, "curl_easy_getinfo");
  *(void **)&curl.easy_cleanup = find(library, "curl_easy_cleanup");
  *(void **)&curl.easy_strerror = find(library, "curl_easy_strerror");
  *(void **)&curl.url = find(library, "curl_url");
  *(void **)&curl.url_set = find(library, "curl_url_set");
  *(void **)&curl.url_get = find(library, "curl_url_get");
  *(void **)&curl.url_cleanup = find(library, "curl_url_cleanup");
  *(void **)&curl.free = find(library, "curl_free");
  *(void **)&curl.slist_append = find(library, "curl_slist_append");
  *(void **)&curl.slist_free_all = find(library, "curl_slist_free_all");
  if (load_error[0] == 0) curl.global_init(CURL_GLOBAL_DEFAULT);
  /* The library stays open for the process's life, as a linked one would. */
}

/* In words, for the few URL errors a script can cause. */
static const char *url_error(CURLUcode code) {
  switch (code) {
    case CURLUE_BAD_SCHEME: case CURLUE_UNSUPPORTED_SCHEME: return "only http and https URLs are fetched";
    case CURLUE_NO_HOST: return "the URL names no host";
    case CURLUE_BAD_PORT_NUMBER: return "a bad port number";
    case CURLUE_MALFORMED_INPUT: return "malformed";
    default: return "malformed";
  }
}

static int classify(CURLcode code, const Transfer *transfer) {
  if (transfer->over_budget) return SSFETCH_OVER_BUDGET;
  if (transfer->too_large || code == CURLE_FILESIZE_EXCEEDED) return SSFETCH_TOO_LARGE;
  if (is_cancelled(transfer->cancel)) return SSFETCH_CANCELLED;
  switch (code) {
    case CURLE_OK: return SSFETCH_OK;
    case CURLE_OPERATION_TIMEDOUT: return SSFETCH_TIMED_OUT;
    case CURLE_COULDNT_CONNECT: return SSFETCH_CONNECT;
    case CURLE_COULDNT_RESOLVE_HOST: return SSFETCH_RESOLVE;
    case CURLE_SSL_CONNECT_ERROR: case CURLE_PEER_FAILED_VERIFICATION: case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER: case CURLE_SSL_CACERT_BADFILE: case CURLE_SSL_ISSUER_ERROR:
      return SSFETCH_TLS;
    case CURLE_UNSUPPORTED_PROTOCOL: case CURLE_URL_MALFORMAT: return SSFETCH_SCHEME;
    case CURLE_TOO_MANY_REDIRECTS: return SSFETCH_REDIRECTS;
    default: return SSFETCH_FAILED;
  }
}

/* Lower-cases ASCII letters in place. */
static void lower(char *text) {
  for (; *text; text++)
    if (*text >= 'A' && *text <= 'Z') *text = (char)(*text - 'A' + 'a');
}

int ssfetch_authority(const char *url, ssfetch_authority_t *out) {
  memset(out, 0, sizeof *out);
  pthread_once(&global_once, global_init);
  if (load_error[0] != 0) {
    snprintf(out->problem, sizeof out->problem, "%s", load_error);
    return -1;
  }
  CURLU *handle = curl.url();
  if (handle == NULL) {
    snprintf(out->problem, sizeof out->problem, "out of memory");
    return -1;
  }
  char *scheme = NULL, *host = NULL, *port = NULL;
  int status = -1;
  CURLUcode code = curl.url_set(handle, CURLUPART_URL, url, 0);
  if (code != CURLUE_OK) {
    snprintf(out->problem, sizeof out->problem, "not a URL libcurl can fetch: %s", url_error(code));
    out->bad_scheme = code == CURLUE_BAD_SCHEME || code == CURLUE_UNSUPPORTED_SCHEME;
  } else if (curl.url_get(handle, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
             (strcmp(scheme, "http") != 0 && strcmp(scheme, "https") != 0)) {
    snprintf(out->problem, sizeof out->problem, "only http and https URLs are fetched");
    out->bad_scheme = 1;
  } else if (curl.url_get(handle, CURLUPART_HOST, &host, 0) != CURLUE_OK || host[0] == '\0') {
    snprintf(out->problem, sizeof out->problem, "the URL names no host");
  } else if (strlen(host) >= sizeof out->host) {
    snprintf(out->problem, sizeof out->problem, "the URL's host name is too long");
  } else {
    snprintf(out->scheme, sizeof out->scheme, "%s", scheme);
    snprintf(out->host, sizeof out->host, "%s", host);
    lower(out->host);
    out->explicit_port = curl.url_get(handle, CURLUPART_PORT, &port, 0) == CURLUE_OK;
    if (!out->explicit_port) curl.url_get(handle, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT);
    out->port = port ? strtol(port, NULL, 10) : 0;
    status = 0;
  }
  curl.free(scheme);
  curl.free(host);
  curl.free(port);
  curl.url_cleanup(handle);
  return status;
}

int ssfetch_allows(const ssfetch_authority_t *authority, const char *const *hosts, size_t count) {
  if (hosts == NULL) return 1;
  for (size_t i = 0; i < count; i++) {
    char pattern[300];
    long wanted = -1;
    snprintf(pattern, sizeof pattern, "%s", hosts[i]);
    lower(pattern);
    /* "name:port" (a bracketed IPv6 address keeps its colons inside the brackets) */
    char *colon = strrchr(pattern, ':');
    if (colon != NULL && strchr(colon, ']') == NULL && (pattern[0] != '[' || colon > strchr(pattern, ']'))) {
      char *end = NULL;
      wanted = strtol(colon + 1, &end, 10);
      if (end == colon + 1 || *end != '\0') continue;
      *colon = '\0';
    }
    if (wanted >= 0 && wanted != authority->port) continue;
    if (strcmp(pattern, "*") == 0 || strcmp(pattern, authority->host) == 0) return 1;
    if (pattern[0] == '*' && pattern[1] == '.') {
      size_t suffix = strlen(pattern) - 1, length = strlen(authority->host);
      if (length > suffix && strcmp(authority->host + length - suffix, pattern + 1) == 0) return 1;
    }
  }
  return 0;
}

/* "host" or "host:port" as a URL wrote it. */
static void shown(const ssfetch_authority_t *authority, char *out, size_t size) {
  if (authority->explicit_port)
    snprintf(out, size, "%s:%ld", authority->host, authority->port);
  else
    snprintf(out, size, "%s", authority->host);
}

int ssfetch_get(const char *url, size_t max_bytes, long timeout_ms, ssfetch_cancel *cancel,
                ssfetch_result *out) {
  return ssfetch_send_within(url, NULL, NULL, 0, max_bytes, timeout_ms, cancel, NULL, out);
}

int ssfetch_get_within(const char *url, const char *const *hosts, size_t host_count, size_t max_bytes,
                       long timeout_ms, ssfetch_cancel *cancel, ssfetch_pool *pool, ssfetch_result *out) {
  return ssfetch_send_within(url, NULL, hosts, host_count, max_bytes, timeout_ms, cancel, pool, out);
}

/* The methods a request may use. */
static const char *const methods[] = {"GET", "POST", "PUT", "PATCH", "DELETE"};

/* The headers the host (libcurl) writes itself, lower case: a script that set them could
** smuggle a second request (Content-Length, Transfer-Encoding), reach another virtual host
** than the one granted (Host), or change the connection. Names starting "proxy-" too. */
static const char *const host_headers[] = {"host", "content-length", "transfer-encoding", "connection", "keep-alive",
                                           "upgrade", "te", "trailer", "expect"};

/* Whether `c` may be part of an RFC 9110 token (a header name). */
static int is_token_char(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return 1;
  return c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

/* Whether `line` starts with `prefix` (lower case), case aside. */
static int starts(const char *line, const char *prefix) {
  for (; *prefix; line++, prefix++) {
    char c = *line;
    if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
    if (c != *prefix) return 0;
  }
  return 1;
}

/* Whether the header line `line` is named `name` (lower case), case aside. */
static int named(const char *line, const char *name) { return starts(line, name) && line[strlen(name)] == ':'; }

/* Whether the header line is one of the request's body's (Content-Type, Content-Encoding,
** Content-Language, Content-Location): dropped with the body when a redirect turns it into a GET. */
static int describes_body(const char *line) {
  return named(line, "content-type") || named(line, "content-encoding") || named(line, "content-language") ||
         named(line, "content-location");
}

const char *ssfetch_request_problem(const ssfetch_request *request) {
  if (request == NULL) return NULL;
  const char *method = request->method ? request->method : "GET";
  int known = 0;
  for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) known |= strcmp(method, methods[i]) == 0;
  if (!known) return "the method must be GET, POST, PUT, PATCH or DELETE";
  if (request->body != NULL && strcmp(method, "GET") == 0) return "a GET sends no body";
  if (request->header_count > SSFETCH_MAX_HEADERS) return "more headers than a request may send (64)";
  size_t total = 0;
  for (size_t i = 0; i < request->header_count; i++) {
    const char *line = request->headers[i];
    if (line == NULL) return "a header line is missing";
    const char *colon = line;
    while (is_token_char(*colon)) colon++;
    if (colon == line || *colon != ':') return "a header name must be a token (letters, digits and !#$%&'*+-.^_`|~)";
    int blank = 1;
    for (const char *c = colon + 1; *c; c++) {
      unsigned char byte = (unsigned char)*c;
      if ((byte < 0x20 && byte != '\t') || byte == 0x7F) return "a header value may hold no control characters (CR, LF…)";
      if (byte != ' ' && byte != '\t') blank = 0;
    }
    /* libcurl leaves out a header whose value is blank (and drops its own of that name). */
    if (blank) return "a header value may not be blank";
    for (size_t j = 0; j < sizeof host_headers / sizeof host_headers[0]; j++) {
      if (named(line, host_headers[j])) return "a header the host sets itself (Host, Content-Length, Transfer-Encoding, Connection, Expect…)";
    }
    if (starts(line, "proxy-")) return "a header the host sets itself (Proxy-…)";
    total += strlen(line) + 2;  /* (the line "Name: value", then CRLF) */
    if (total > SSFETCH_MAX_HEADER_BYTES) return "the headers hold more than 16384 bytes together";
  }
  return NULL;
}

/* Sets one hop's method, body and headers on `handle`: `method`, the body when `with_body`,
** the request's headers but those describing the body when `!with_body` and the credentials
** (Authorization, Cookie) when `strip_credentials`. The list is `*list`'s to free. */
static int configure(CURL *handle, const char *method, const ssfetch_request *request, int with_body,
                     int strip_credentials, struct curl_slist **list) {
  curl.slist_free_all(*list);
  *list = NULL;
  int typed = 0;
  for (size_t i = 0; request != NULL && i < request->header_count; i++) {
    const char *line = request->headers[i];
    if (!with_body && describes_body(line)) continue;
    if (strip_credentials && (named(line, "authorization") || named(line, "cookie"))) continue;
    typed |= named(line, "content-type");
    struct curl_slist *longer = curl.slist_append(*list, line);
    if (longer == NULL) return 0;
    *list = longer;
  }
  int posting = with_body || strcmp(method, "POST") == 0;
  /* Sending a body: no Content-Type the request does not name (libcurl would add a form's),
  ** and no "Expect: 100-continue" round trip. */
  const char *quiet[] = {typed ? NULL : "Content-Type:", "Expect:"};
  for (size_t i = 0; posting && i < 2; i++) {
    if (quiet[i] == NULL) continue;
    struct curl_slist *longer = curl.slist_append(*list, quiet[i]);
    if (longer == NULL) return 0;
    *list = longer;
  }
  curl.easy_setopt(handle, CURLOPT_HTTPHEADER, *list);
  if (posting) {
    const char *body = with_body && request->body ? request->body : "";
    curl.easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)(with_body ? request->body_length : 0));
    curl.easy_setopt(handle, CURLOPT_POSTFIELDS, body);
  } else {
    curl.easy_setopt(handle, CURLOPT_HTTPGET, 1L);
  }
  /* (libcurl's own word for a POST with fields, or a GET: no custom method) */
  const char *custom = strcmp(method, posting ? "POST" : "GET") == 0 ? NULL : method;
  curl.easy_setopt(handle, CURLOPT_CUSTOMREQUEST, custom);
  return 1;
}

/* Whether two URLs' authorities are the same origin (scheme, host and port). */
static int same_origin(const ssfetch_authority_t *a, const ssfetch_authority_t *b) {
  return strcmp(a->scheme, b->scheme) == 0 && strcmp(a->host, b->host) == 0 && a->port == b->port;
}

int ssfetch_send_within(const char *url, const ssfetch_request *request, const char *const *hosts, size_t host_count,
                        size_t max_bytes, long timeout_ms, ssfetch_cancel *cancel, ssfetch_pool *pool,
                        ssfetch_result *out) {
  memset(out, 0, sizeof *out);
  const char *problem = ssfetch_request_problem(request);
  if (problem != NULL) {
    out->outcome = SSFETCH_BAD_REQUEST;
    snprintf(out->message, sizeof out->message, "%s", problem);
    return out->outcome;
  }
  pthread_once(&global_once, global_init);
  if (load_error[0] != 0) {
    out->outcome = SSFETCH_FAILED;
    snprintf(out->message, sizeof out->message, "%s", load_error);
    return out->outcome;
  }
  CURL *handle = curl.easy_init();
  if (handle == NULL) {
    out->outcome = SSFETCH_FAILED;
    strcpy(out->message, "libcurl could not start a transfer (out of memory?)");
    return out->outcome;
  }
  Transfer transfer = {NULL, 0, 0, max_bytes, 0, 0, cancel, pool ? pool : &process_pool};
  char error[CURL_ERROR_SIZE] = "";
  curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
  /* Only http and https, redirects included: a libcurl that cannot promise it (older than
  ** 7.85) does not fetch at all. */
  CURLcode limited = curl.easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
  if (limited == CURLE_OK) limited = curl.easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  if (limited != CURLE_OK) {
    out->outcome = SSFETCH_FAILED;
    snprintf(out->message, sizeof out->message,
             "libcurl cannot limit fetches to http and https (%s; 7.85 or newer is needed)",
             curl.easy_strerror(limited));
    curl.easy_cleanup(handle);
    return out->outcome;
  }
  /* Redirects are followed here, not by libcurl: every URL a fetch connects to, the first and
  ** each redirect's, is read by libcurl's own URL parser and held to the grant (`hosts`). */
  curl.easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 0L);
  curl.easy_setopt(handle, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)max_bytes);
  curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, on_data);
  curl.easy_setopt(handle, CURLOPT_WRITEDATA, &transfer);
  curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl.easy_setopt(handle, CURLOPT_XFERINFODATA, &transfer);
  curl.easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
  curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, error);
  curl.easy_setopt(handle, CURLOPT_USERAGENT, "sendingstate");
  /* One deadline for the whole fetch, redirects included. */
  struct timespec started;
  clock_gettime(CLOCK_MONOTONIC, &started);
  long budget = timeout_ms > 0 ? timeout_ms : 1L;
  char *current = strdup(url);
  char *previous = NULL;
  CURLcode code = CURLE_OK;
  int hops = 0;
  /* What this hop sends: the request's method and body until a redirect turns it into a GET. */
  const char *method = request && request->method ? request->method : "GET";
  int with_body = request != NULL && request->body != NULL;
  int strip_credentials = 0, redirect_status = 0;
  struct curl_slist *headers = NULL;
  ssfetch_authority_t last;
  memset(&last, 0, sizeof last);
  out->outcome = -1;
  while (current != NULL) {
    ssfetch_authority_t authority;
    if (ssfetch_authority(current, &authority) != 0) {
      out->outcome = previous || authority.bad_scheme ? SSFETCH_SCHEME : SSFETCH_FAILED;
      if (previous)
        snprintf(out->message, sizeof out->message, "%.100s redirected to %.100s: %s", previous, current, authority.problem);
      else
        snprintf(out->message, sizeof out->message, "%s", authority.problem);
      break;
    }
    if (!ssfetch_allows(&authority, hosts, host_count)) {
      char where[300], granted[200] = "";
      size_t used = 0;
      shown(&authority, where, sizeof where);
      for (size_t i = 0; i < host_count && used < sizeof granted - 1; i++) {
        int n = snprintf(granted + used, sizeof granted - used, "%s%s", i ? ", " : "", hosts[i]);
        if (n < 0) break;
        used += (size_t)n;
      }
      out->outcome = SSFETCH_NOT_GRANTED;
      if (previous)
        snprintf(out->message, sizeof out->message,
                 "%.100s redirected to %.100s, which the net capability does not list (it lists %.80s)", previous, where, granted);
      else
        snprintf(out->message, sizeof out->message, "%.100s is not one of the hosts the net capability lists (%.80s)", where, granted);
      break;
    }
    if (previous != NULL && !same_origin(&last, &authority)) {
      if (with_body) {  /* a 307 or 308: the body would go to an origin the script did not name */
        char where[300];
        shown(&authority, where, sizeof where);
        out->outcome = SSFETCH_BODY_REDIRECT;
        snprintf(out->message, sizeof out->message,
                 "%.100s redirected the %s (HTTP %d) to %.100s, another origin: its body is not sent there", previous, method,
                 redirect_status, where);
        break;
      }
      strip_credentials = 1;
    }
    last = authority;
    if (!configure(handle, method, request, with_body, strip_credentials, &headers)) {
      out->outcome = SSFETCH_FAILED;
      strcpy(out->message, "libcurl could not hold the request's headers (out of memory?)");
      break;
    }
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long elapsed = (long)(now.tv_sec - started.tv_sec) * 1000 + (now.tv_nsec - started.tv_nsec) / 1000000;
    if (elapsed >= budget) {
      code = CURLE_OPERATION_TIMEDOUT;
      break;
    }
    transfer.length = 0;  /* (a redirect's own body is not the answer) */
    error[0] = '\0';
    curl.easy_setopt(handle, CURLOPT_URL, current);
    curl.easy_setopt(handle, CURLOPT_TIMEOUT_MS, budget - elapsed);
    code = curl.easy_perform(handle);
    if (code != CURLE_OK) break;
    long status = 0;
    char *location = NULL;
    curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
    out->status = status;
    if (status < 300 || status > 399 || curl.easy_getinfo(handle, CURLINFO_REDIRECT_URL, &location) != CURLE_OK ||
        location == NULL)
      break;  /* an answer (a 3xx without a location is one too) */
    if (++hops > SSFETCH_MAX_REDIRECTS) {
      code = CURLE_TOO_MANY_REDIRECTS;
      break;
    }
    /* As browsers: a 303 (after anything but a GET), or a 301 or 302 after a POST, is a GET. */
    if ((status == 303 && strcmp(method, "GET") != 0) || ((status == 301 || status == 302) && strcmp(method, "POST") == 0)) {
      method = "GET";
      with_body = 0;
    }
    redirect_status = (int)status;
    free(previous);
    previous = current;
    current = strdup(location);  /* (libcurl made it absolute; it owns `location`) */
  }
  free(previous);
  free(current);
  curl.easy_cleanup(handle);
  curl.slist_free_all(headers);  /* (after the handle that points at it) */
  if (out->outcome >= 0) {  /* refused before connecting */
    free(transfer.body);
    release(transfer.pool, transfer.capacity);
    return out->outcome;
  }
  out->outcome = classify(code, &transfer);
  if (out->outcome == SSFETCH_OK) {
    out->body = transfer.body;
    out->length = transfer.length;
    out->held = transfer.capacity;  /* (released by ssfetch_free) */
    out->pool = transfer.pool;
  } else {
    free(transfer.body);
    release(transfer.pool, transfer.capacity);
    const char *words = error[0] ? error : curl.easy_strerror(code);
    snprintf(out->message, sizeof out->message, "%s", words);
  }
  return out->outcome;
}

void ssfetch_free(ssfetch_result *result) {
  release(result->pool, result->held);
  result->held = 0;
  free(result->body);
  result->body = NULL;
  result->length = 0;
}
