/*
** Fetch.c: a bounded GET through libcurl's easy interface (see fetch.h).
*/
#include "fetch.h"

#include <curl/curl.h>
#include <pthread.h>
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

static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static void global_init(void) { curl_global_init(CURL_GLOBAL_DEFAULT); }

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
  CURL *curl = curl_easy_init();
  if (curl == NULL) {
    out->outcome = SSFETCH_FAILED;
    strcpy(out->message, "libcurl could not start a transfer (out of memory?)");
    return out->outcome;
  }
  Transfer transfer = {NULL, 0, 0, max_bytes, 0, cancel};
  char error[CURL_ERROR_SIZE] = "";
  curl_easy_setopt(curl, CURLOPT_URL, url);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms > 0 ? timeout_ms : 1L);
  curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)max_bytes);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_data);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(curl, CURLOPT_USERAGENT, "sendingstate");
  CURLcode code = curl_easy_perform(curl);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out->status);
  curl_easy_cleanup(curl);
  out->outcome = classify(code, &transfer);
  if (out->outcome == SSFETCH_OK) {
    out->body = transfer.body;
    out->length = transfer.length;
  } else {
    free(transfer.body);
    const char *words = error[0] ? error : curl_easy_strerror(code);
    strncpy(out->message, words, sizeof out->message - 1);
  }
  return out->outcome;
}

void ssfetch_free(ssfetch_result *result) {
  free(result->body);
  result->body = NULL;
  result->length = 0;
}
