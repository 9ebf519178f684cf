/*
** CLuaShim: the watch, which enforces a wall-clock deadline without a hook.
**
** In Lua 5.4 any count hook puts the VM in trap mode: every instruction then calls
** luaG_traceexec, whatever the hook's count. A deadline read by a count hook costs a third of
** a tap. So while an episode has a deadline and no instruction budget, no hook is set at all.
** One watch thread sleeps until the earliest armed deadline; when one passes, it sends
** SSLUA_WATCH_SIGNAL to the thread running that state, whose handler sets the limits' hook on
** the running Lua thread with lua_sethook, which Lua allows from a signal handler (lua.c stops
** a script on SIGINT the same way). The hook then raises the time limit as before.
**
** Who may touch what:
**  - every thread that arms a deadline owns one slot of `slots` (claimed at its first arm,
**    given back when the thread ends). Only the owner writes its slot's entries (one per host
**    armed on it: hosts nest when a script's call into Swift runs another host's Lua);
**  - the signal handler runs on the owner and reads only its own slot, so it never races a
**    writer: it may interrupt one, which is why an entry's deadline is written last and
**    cleared first;
**  - the watch thread reads deadlines and owners (atomics) under `lock`, and only sends signals.
** If no slot is free, the caller falls back to the count hook (slower, never unbounded).
*/
#define _GNU_SOURCE

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include <lua.h>

#include "host.h"

/* Threads that may hold a deadline at once, and hosts nested on one thread. */
#define WATCH_SLOTS 256
#define WATCH_ENTRIES 8
/* While an armed deadline has passed and its hook has not raised yet (the thread is in Swift
** between two calls, or a hook set by the handler was overwritten by the thread itself), the
** signal is sent again this often. */
#define WATCH_RESEND_NS 5000000LL

typedef struct WatchEntry {
  Host *host;                  /* written by the owner before the deadline */
  _Atomic long long deadline;  /* monotonic ns; 0 = the entry is free */
} WatchEntry;

typedef struct WatchSlot {
  _Atomic unsigned long owner; /* pthread_t of the owner; 0 = free */
  WatchEntry entries[WATCH_ENTRIES];
} WatchSlot;

static WatchSlot slots[WATCH_SLOTS];

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake;
/* When the watch thread will next look (under `lock`); LLONG_MAX: only when woken. */
static long long wake_at = LLONG_MAX;
static pthread_once_t started = PTHREAD_ONCE_INIT;
static int available = 0;      /* the thread and the handler are in place */
static int watch_signal = 0;

/* This thread's slot, or -1 (and the key that gives it back when the thread ends). */
static _Thread_local int my_slot = -1;
static pthread_key_t slot_key;

static long long monotonic_now (void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The handler: on its owner's thread, sets the hook of every state whose deadline passed. */
static void on_signal (int sig) {
  (void)sig;
  int saved_errno = errno;
  unsigned long self = (unsigned long)pthread_self();
  long long now = monotonic_now();
  for (int s = 0; s < WATCH_SLOTS; s++) {
    WatchSlot *slot = &slots[s];
    if (atomic_load_explicit(&slot->owner, memory_order_acquire) != self) continue;
    for (int e = 0; e < WATCH_ENTRIES; e++) {
      WatchEntry *entry = &slot->entries[e];
      long long deadline = atomic_load_explicit(&entry->deadline, memory_order_acquire);
      if (deadline == 0 || now < deadline) continue;
      Host *h = entry->host;
      h->watch_due = 1;
      if (h->enforce <= 0) continue;  /* host code that must not be cut short: it re-arms after */
      /* The thread running Lua now; with no call running, the state's main thread (the next call
      ** arms its hook anew, and sees watch_due). */
      sslua_hook_now(h->depth > 0 && h->running != NULL ? h->running : h->main, h);
    }
    break;  /* a thread owns one slot */
  }
  errno = saved_errno;
}

static void *watch_main (void *unused) {
  (void)unused;
  pthread_mutex_lock(&lock);
  for (;;) {
    long long now = monotonic_now();
    long long next = LLONG_MAX;
    for (int s = 0; s < WATCH_SLOTS; s++) {
      unsigned long owner = atomic_load_explicit(&slots[s].owner, memory_order_acquire);
      if (owner == 0) continue;
      for (int e = 0; e < WATCH_ENTRIES; e++) {
        long long deadline = atomic_load_explicit(&slots[s].entries[e].deadline, memory_order_acquire);
        if (deadline == 0) continue;
        if (now >= deadline) {
          pthread_kill((pthread_t)owner, watch_signal);
          deadline = now + WATCH_RESEND_NS;
        }
        if (deadline < next) next = deadline;
      }
    }
    wake_at = next;
    if (next == LLONG_MAX)
      pthread_cond_wait(&wake, &lock);
    else {
      struct timespec until = { (time_t)(next / 1000000000LL), (long)(next % 1000000000LL) };
      pthread_cond_timedwait(&wake, &lock, &until);
    }
  }
  return NULL;
}

/* A thread ends: its slot is free again (its hosts' entries go with it). */
static void give_back (void *value) {
  int s = (int)(long)value - 1;
  if (s < 0 || s >= WATCH_SLOTS) return;
  /* Under the lock: the watch must not signal a thread that has ended. */
  pthread_mutex_lock(&lock);
  for (int e = 0; e < WATCH_ENTRIES; e++) {
    atomic_store(&slots[s].entries[e].deadline, 0);
    slots[s].entries[e].host = NULL;
  }
  atomic_store_explicit(&slots[s].owner, 0, memory_order_release);
  pthread_mutex_unlock(&lock);
}

static void start (void) {
  pthread_condattr_t attributes;
  pthread_t thread;
  pthread_attr_t thread_attributes;
  sigset_t all, saved;
  struct sigaction action;
  if (pthread_key_create(&slot_key, give_back) != 0) return;
  pthread_condattr_init(&attributes);
  pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
  pthread_cond_init(&wake, &attributes);
  pthread_condattr_destroy(&attributes);
  watch_signal = SIGRTMIN + 6;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_signal;
  action.sa_flags = SA_RESTART;
  sigfillset(&action.sa_mask);
  if (sigaction(watch_signal, &action, NULL) != 0) return;
  /* The watch thread takes no signals (they are for the threads that run Lua). */
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &saved);
  pthread_attr_init(&thread_attributes);
  pthread_attr_setdetachstate(&thread_attributes, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&thread_attributes, 64 * 1024);
  int created = pthread_create(&thread, &thread_attributes, watch_main, NULL);
  pthread_attr_destroy(&thread_attributes);
  pthread_sigmask(SIG_SETMASK, &saved, NULL);
  if (created == 0) available = 1;
}

/* This thread's slot, claimed on first use; -1 when none is free. */
static int claim_slot (void) {
  if (my_slot >= 0) return my_slot;
  pthread_once(&started, start);
  if (!available) return -1;
  unsigned long self = (unsigned long)pthread_self();
  for (int s = 0; s < WATCH_SLOTS; s++) {
    unsigned long free_owner = 0;
    if (atomic_compare_exchange_strong(&slots[s].owner, &free_owner, self)) {
      sigset_t ours;
      my_slot = s;
      pthread_setspecific(slot_key, (void *)(long)(s + 1));
      /* Threads of a pool may block signals: this one must reach the thread. */
      sigemptyset(&ours);
      sigaddset(&ours, watch_signal);
      pthread_sigmask(SIG_UNBLOCK, &ours, NULL);
      return s;
    }
  }
  return -1;
}

void sslua_watch_prepare (void) {
  (void)claim_slot();
}

int sslua_watch_arm (Host *h) {
  long long deadline = h->deadline_ns;
  int s = my_slot;
  if (s >= 0 && h->watch_slot == s) {
    WatchEntry *entry = &slots[s].entries[h->watch_entry];
    if (entry->host == h &&
        atomic_load_explicit(&entry->deadline, memory_order_relaxed) == deadline)
      return 1;  /* armed already (every call of an episode arms again) */
  }
  sslua_watch_disarm(h);  /* armed for another deadline, or on another thread */
  s = claim_slot();
  if (s < 0) return 0;
  WatchSlot *slot = &slots[s];
  for (int e = 0; e < WATCH_ENTRIES; e++) {
    WatchEntry *entry = &slot->entries[e];
    if (atomic_load_explicit(&entry->deadline, memory_order_relaxed) != 0) continue;
    h->watch_due = 0;
    h->watch_slot = s;
    h->watch_entry = e;
    pthread_mutex_lock(&lock);  /* (a disarm from another thread checks the host under it) */
    entry->host = h;
    atomic_store_explicit(&entry->deadline, deadline, memory_order_release);
    if (deadline < wake_at) pthread_cond_signal(&wake);
    pthread_mutex_unlock(&lock);
    return 1;
  }
  return 0;  /* hosts nested deeper than WATCH_ENTRIES on one thread */
}

void sslua_watch_disarm (Host *h) {
  if (h->watch_slot < 0) return;
  WatchEntry *entry = &slots[h->watch_slot].entries[h->watch_entry];
  if (h->watch_slot == my_slot) {
    /* This thread's own entry: only it writes there (and its handler reads the deadline first). */
    atomic_store_explicit(&entry->deadline, 0, memory_order_release);
  }
  else {
    /* The host moved to another thread, or its thread ended and the slot may have a new owner:
    ** the entry is cleared only if it is still this host's, checked under the lock. */
    pthread_mutex_lock(&lock);
    if (entry->host == h) {
      atomic_store_explicit(&entry->deadline, 0, memory_order_release);
      entry->host = NULL;
    }
    pthread_mutex_unlock(&lock);
  }
  h->watch_slot = -1;
  h->watch_due = 0;
}
