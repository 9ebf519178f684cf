/*
** Fetch.c: a bounded GET through libcurl's easy interface (see fetch.h).
**
** libcurl is opened with dlopen at the first fetch, not linked: linked, it and the ~25 shared
** objects it needs (TLS, LDAP, Kerberos, SSH, RTMP, IDN) were loaded and relocated by every
** start of the CLI, most of which never fetch. Only its header is used at build time.
*/
#include "fetch.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ssfetch_cancel {
  int set;  /* read and written with __atomic builtins only */
};

ssfetch_cancel *ssfetch_cancel_new(void) { return calloc(1, sizeof(ssfetch_cancel)); }

void ssfetch_cancel_set(ssfetch_cancel *flag) { __atomic_store_n(&flag->set, 1, __ATOMIC_RELEASE); }

void ssfetch_cancel_free(ssfetch_cancel *flag) { free(flag); }

static int is_cancelled(ssfetch_cancel *flag) {
  return flag != NULL && __atomic_load_n(&flag->set, __ATOMIC_ACQUIRE);
}

/* The body as it arrives, and whether the limit stopped it. */
typedef struct Transfer {
  char *body;
  size_t length;
  size_t capacity;
  size_t max_bytes;
  int too_large;
  ssfetch_cancel *cancel;
} Transfer;

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
    char *grown = realloc(transfer->body, capacity);
    if (grown == NULL) return 0;
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
  if (load_error[0] == 0) curl.global_init(CURL_GLOBAL_DEFAULT);
  /* The library stays open for the process's life, as a linked one would. */
}

static int classify(CURLcode code, const Transfer *transfer) {
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

int ssfetch_get(const char *url, size_t max_bytes, long timeout_ms, ssfetch_cancel *cancel,
                ssfetch_result *out) {
  memset(out, 0, sizeof *out);
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
  Transfer transfer = {NULL, 0, 0, max_bytes, 0, cancel};
  char error[CURL_ERROR_SIZE] = "";
  curl.easy_setopt(handle, CURLOPT_URL, url);
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
  curl.easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 1L);
  curl.easy_setopt(handle, CURLOPT_MAXREDIRS, 5L);
  curl.easy_setopt(handle, CURLOPT_TIMEOUT_MS, timeout_ms > 0 ? timeout_ms : 1L);
  curl.easy_setopt(handle, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)max_bytes);
  curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, on_data);
  curl.easy_setopt(handle, CURLOPT_WRITEDATA, &transfer);
  curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl.easy_setopt(handle, CURLOPT_XFERINFODATA, &transfer);
  curl.easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
  curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, error);
  curl.easy_setopt(handle, CURLOPT_USERAGENT, "sendingstate");
  CURLcode code = curl.easy_perform(handle);
  curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &out->status);
  curl.easy_cleanup(handle);
  out->outcome = classify(code, &transfer);
  if (out->outcome == SSFETCH_OK) {
    out->body = transfer.body;
    out->length = transfer.length;
  } else {
    free(transfer.body);
    const char *words = error[0] ? error : curl.easy_strerror(code);
    snprintf(out->message, sizeof out->message, "%s", words);
  }
  return out->outcome;
}

void ssfetch_free(ssfetch_result *result) {
  free(result->body);
  result->body = NULL;
  result->length = 0;
}
