/* SPDX-License-Identifier: BSD-3-Clause */
/* Residency across calls: detecting changes to host arrays, and the cache of
   device copies keyed by them (DESIGN.md, "Residency across calls"). */
#ifndef HYB_RESIDENCY_H
#define HYB_RESIDENCY_H

#include <stddef.h>
#include <stdint.h>

#include "core/config/hyb_config.h" /* hyb_residency_mode_t (HYBLAS_RESIDENCY) */
#include "hyb_status.h"
#include "hyb_team.h"

/* ------------------------------------------------------------ mechanisms */

/* How a watch decides that its host ranges changed.
   UFFD:      userfaultfd asynchronous write-protect, read back with the
              PAGEMAP_SCAN ioctl (Linux >= 6.7). Exact per page; a check
              costs a page-table walk, no read of the data.
   SOFTDIRTY: the soft-dirty bit of /proc/self/pagemap; clearing it is
              process-wide. Used only where a runtime probe proves it works.
   HASH:      a 64-bit hash of the bytes; a check reads every byte.
   NONE:      nothing is ever cached. */
typedef enum
{
	HYB_RESIDENCY_MECH_AUTO = 0, /* from the mode: see hyb_residency_mech_for_mode */
	HYB_RESIDENCY_MECH_NONE,
	HYB_RESIDENCY_MECH_HASH,
	HYB_RESIDENCY_MECH_SOFTDIRTY,
	HYB_RESIDENCY_MECH_UFFD,
	HYB_RESIDENCY_MECH_COUNT
} hyb_residency_mech_t;

/* One host byte range [addr, addr + bytes). bytes == 0 is allowed (empty). */
typedef struct
{
	const void* addr;
	size_t      bytes;
} hyb_residency_range_t;

/* "none", "hash", "soft-dirty", "uffd-wp" ("auto" for AUTO); never NULL. */
const char* hyb_residency_mech_name( hyb_residency_mech_t m );

/* Whether a mechanism works in this process. NONE and HASH always do. UFFD
   and SOFTDIRTY are probed once per process by a functional test (a page is
   armed, written by a store and by read(2), and must read back as written);
   the SOFTDIRTY probe clears the soft-dirty bits of the whole process, so it
   runs only when asked for. Returns 0 in a child after fork() for the kernel
   mechanisms (the probe belongs to the parent). Thread-safe. */
int hyb_residency_mech_available( hyb_residency_mech_t m );

/* The uffd-wp scan in use: 0 fast (the kernel's written-pages fast path),
   1 full (every page walked and judged; chosen by the probe where the
   kernel does not report a zapped PMD as written). full >= 0 sets it, for
   tests and the cost tool; -1 only reads it. Both are correct at any time. */
int hyb_residency_uffd_full_scan( int full );

/* The mechanism a mode uses: OFF -> NONE, VERIFY -> HASH, TRACK -> UFFD if
   available, else HASH; TRACK_SOFTDIRTY -> UFFD, else SOFTDIRTY if
   available, else HASH. Soft-dirty is never chosen (nor probed) unless the
   mode asks for it: clearing it is process-wide and erases the program's own
   soft-dirty state. Probes on first use; thread-safe. */
hyb_residency_mech_t hyb_residency_mech_for_mode( hyb_residency_mode_t mode );

/* How many times this process wrote /proc/self/clear_refs (the soft-dirty
   probe and soft-dirty arms), for tests and tools. Thread-safe. */
int hyb_residency_clear_refs_writes( void );

/* Tests only: make hyb_residency_mech_available report mechanism m
   unavailable (forbid != 0) or available as probed again (0). */
void hyb_residency_forbid_for_test( hyb_residency_mech_t m, int forbid );

/* Tests only: the next n reads of watch_create_safe are refused as a seccomp profile
   refusing process_vm_readv refuses them (HYB_E_NOT_SUPPORTED). */
void hyb_residency_refuse_safe_reads_for_test( int n );

/* Hash of n bytes (the HASH mechanism's function; exposed for tests and the
   cost tool). Any change confined to one 8-byte word (words counted from
   p) changes the value; other changes are missed with probability about
   2^-64. Ranges of
   4 MiB and more are hashed by OpenMP threads (not in a forked child); the
   value does not depend on the thread count. Thread-safe. */
uint64_t hyb_residency_hash_bytes( const void* p, size_t n );

/* ------------------------------------------------------------ watches */

typedef struct hyb_residency_watch_s hyb_residency_watch_t;

/* Arm a watch over nranges ranges (copied; 0 <= nranges). From this call
   on, any change to the bytes of the ranges makes hyb_residency_watch_changed
   return 1: arm first, then read the data you derive from them.
   mech is HASH, SOFTDIRTY or UFFD (AUTO means the TRACK choice). A kernel
   mechanism tracks only the whole pages of a range of at least
   HYB_RESIDENCY_TRACK_MIN_BYTES that lie in private anonymous memory; the
   partial pages at both ends, small ranges, and ranges it cannot track
   (file or shared mappings, memory another userfaultfd registered) are
   hashed instead, so a write to a neighbour sharing a page is not a change.
   The ranges must be mapped and readable now. Out: *out (destroy it with
   hyb_residency_watch_destroy). Returns HYB_E_INVALID (bad arguments) or
   HYB_E_NO_MEMORY. Thread-safe.
   UFFD registers exactly the tracked pages (the kernel splits their mapping
   until the watch is destroyed: a program's mremap() across the split fails
   with EFAULT meanwhile; glibc's realloc falls back to copying), never a
   neighbour in the same mapping. While the program holds a userfaultfd of
   its own (looked for at every arm and at most every 0.25 s at checks, and
   seen when its registration of our pages makes ours fail), uffd-wp steps
   aside: every uffd watch is released and reports changed, and watches arm
   by hashing until that descriptor is closed. */
hyb_status_t hyb_residency_watch_create( hyb_residency_mech_t         mech,
                                         const hyb_residency_range_t* ranges, int nranges,
                                         hyb_residency_watch_t** out );

/* As hyb_residency_watch_create, for ranges the program may unmap meanwhile (a thread
   other than the caller that handed them over arms the watch): the bytes it hashes are read
   without a fault (through process_vm_readv, on this thread), and nothing is armed where
   they cannot be read: HYB_E_INVALID where some are no longer mapped, HYB_E_NOT_SUPPORTED
   where the process may not read itself so (a seccomp profile), HYB_E_NO_MEMORY. */
hyb_status_t hyb_residency_watch_create_safe( hyb_residency_mech_t         mech,
                                              const hyb_residency_range_t* ranges, int nranges,
                                              hyb_residency_watch_t** out );

/* Whether copies of the watch's ranges (copies[i]: range i's bytes as read at some time
   after the arm) hash, on the watch's hashed bytes, to what the arm hashed. */
int hyb_residency_watch_matches_copy( const hyb_residency_watch_t* w, const void* const* copies );

/* The bytes of range `part` the watch hashes: [0, *head) and [*tail_off, bytes) of it
   (*head = *tail_off = bytes where it hashes all of it); returns the range's bytes (0 for no
   such part). */
size_t hyb_residency_watch_ends( const hyb_residency_watch_t* w, int part, size_t* head,
                                 size_t* tail_off );

/* As watch_matches_copy, from the hashed bytes alone: heads[i] holds range i's bytes [0,
   head), tails[i] its bytes [tail_off, bytes) (as hyb_residency_watch_ends gives them). */
int hyb_residency_watch_matches_ends( const hyb_residency_watch_t* w, const void* const* heads,
                                      const void* const* tails );

/* 1 if the ranges may have changed since the watch was armed (or last
   rearmed), 0 if they provably did not. Sticky: once 1, stays 1 until rearm.
   Errors count as changed. May read the ranges (hashed parts), so call it
   only while they are mapped, i.e. while the application has just handed
   them over. In a child after fork() a kernel-tracked watch always reports 1
   and touches nothing the parent owns. Thread-safe, also for one watch used
   by several threads. */
int hyb_residency_watch_changed( hyb_residency_watch_t* w );

/* As hyb_residency_watch_changed, the kernel's page tables walked by `team`'s threads in
   pieces (NULL: this thread alone). Call from the team's owner. */
int hyb_residency_watch_changed_on( hyb_residency_watch_t* w, hyb_team_t* team );

/* Tests: cut a check's walk into pieces as small as `bytes` (0: the default), so that a
   small watch is walked by several threads. */
void hyb_residency_scan_piece_for_test( size_t bytes );

/* Re-baseline: forget earlier changes and report only later ones. Same
   preconditions as create (ranges mapped). Falls back to hashing if kernel
   tracking can no longer be armed. Not concurrently with other calls on the
   same watch. Returns HYB_OK, or HYB_E_INVALID for NULL. */
hyb_status_t hyb_residency_watch_rearm( hyb_residency_watch_t* w );

/* The mechanism actually used for the ranges' tracked pages: the requested
   kernel mechanism, or HASH where it fell back entirely. */
hyb_residency_mech_t hyb_residency_watch_mech( const hyb_residency_watch_t* w );

/* Destroy a watch (NULL is allowed). Never reads the ranges, so it is safe
   after they were freed. Pages no other watch covers lose their write
   protection and their userfaultfd registration (the mapping merges back).
   Thread-safe with respect to other watches. */
void hyb_residency_watch_destroy( hyb_residency_watch_t* w );

/* Ranges smaller than this are hashed even under a kernel mechanism: hashing
   64 KiB costs a few microseconds, about what a scan system call costs, and
   a small array shares its pages with neighbours anyway. */
#define HYB_RESIDENCY_TRACK_MIN_BYTES ( (size_t)64 * 1024 )

/* ------------------------------------------------------------ the cache */

typedef struct hyb_residency_cache_s hyb_residency_cache_t;
typedef struct hyb_residency_entry_s hyb_residency_entry_t;

/* Destroys a payload (device buffers, ...). Runs without any cache lock
   held; never runs in a forked child. */
typedef void ( *hyb_residency_free_fn )( void* payload, void* ctx );

typedef struct
{
	hyb_residency_mode_t mode;        /* OFF, VERIFY or TRACK */
	hyb_residency_mech_t mech;        /* AUTO: from mode; else forces one (tests, tools) */
	size_t               max_entries; /* 0: HYB_RESIDENCY_DEFAULT_ENTRIES */
	uint64_t             max_bytes;   /* payload bytes; 0: HYB_RESIDENCY_DEFAULT_BYTES */
} hyb_residency_cache_config_t;

/* Defaults when the caller gives 0. Entries: an iterative solver keeps one
   to a few matrices live; 32 covers several solvers per process while a
   linear lookup stays far below a microsecond. Bytes: the caller should pass
   its device-memory budget (HYBLAS_GPU_MEM); 1 GiB fits any device we
   target when it does not. */
#define HYB_RESIDENCY_DEFAULT_ENTRIES 32
#define HYB_RESIDENCY_DEFAULT_BYTES   ( (uint64_t)1 << 30 )

/* What hyb_residency_cache_acquire found. */
typedef enum
{
	HYB_RESIDENCY_HIT = 0,  /* *entry pinned; its payload is valid for the ranges as they are now */
	HYB_RESIDENCY_FILL,     /* *entry pinned, no payload: build one, then cache_fill (armed,
	                           except from acquire_unarmed: cache_arm first) */
	HYB_RESIDENCY_BYPASS,   /* *entry NULL: do not cache this call (mode off, keeps changing,
	                           being filled by another thread, cache full of pinned entries,
	                           arming failed, or a forked child) */
	HYB_RESIDENCY_UNCHECKED /* acquire_unchecked only: *entry pinned, its payload usable, but
	                           not yet proven current: hyb_residency_cache_confirm decides */
} hyb_residency_outcome_t;

/* Statistics of one cache (a snapshot). */
typedef struct
{
	uint64_t lookups;       /* acquire calls */
	uint64_t hits;          /* served a payload */
	uint64_t misses;        /* no valid entry (includes invalidated ones) */
	uint64_t invalidations; /* entries dropped because their ranges changed */
	uint64_t fills;         /* payloads attached */
	uint64_t evictions;     /* entries dropped by the LRU bounds */
	uint64_t dropped;       /* payloads that could not be kept (too big, all pinned) */
	uint64_t bans;          /* times a key was declared "keeps changing" */
	uint64_t bypass_churn;  /* acquires refused because the key keeps changing */
	uint64_t bypass_other;  /* other refusals (off, busy, full, arming failed) */
	double   check_seconds; /* time in change checks on hits and invalidations */
	double   arm_seconds;   /* time arming watches for fills */
	uint64_t arm_failures;  /* fills whose arm failed (hyb_residency_cache_arm's errors) */
	size_t   entries;       /* live entries now (filled or being filled) */
	uint64_t bytes;         /* payload bytes now */
} hyb_residency_stats_t;

/* Create a cache. cfg == NULL means mode TRACK with defaults. Out: *out.
   Returns HYB_E_INVALID or HYB_E_NO_MEMORY. */
hyb_status_t hyb_residency_cache_create( const hyb_residency_cache_config_t* cfg,
                                         hyb_residency_cache_t**             out );

/* Destroy a cache and every payload in it (NULL is allowed). No entry may
   be pinned. In a forked child the payloads are abandoned, not destroyed
   (they belong to the parent's device context). */
void hyb_residency_cache_destroy( hyb_residency_cache_t* c );

/* Look up the entry for (ranges, key): key tells apart different payloads
   of the same arrays (format, K, precision, ...). ranges must be what the
   application passed to the current call (mapped now); 1 <= nranges.
   HIT: the ranges are provably unchanged since the payload's data was read;
   the entry stays valid until hyb_residency_cache_release, even if another
   thread invalidates it meanwhile. An entry whose ranges changed is dropped
   (its payload destroyed once nobody holds it) and counts as a miss.
   FILL: a watch was armed before returning, so read the host data only
   now, build the payload and attach it with hyb_residency_cache_fill, or
   give up with hyb_residency_cache_release.
   Thread-safe; the change check runs outside the cache lock. */
hyb_residency_outcome_t hyb_residency_cache_acquire( hyb_residency_cache_t*       c,
                                                     const hyb_residency_range_t* ranges,
                                                     int nranges, uint64_t key,
                                                     hyb_residency_entry_t** entry );

/* As hyb_residency_cache_acquire, but an entry that exists comes back at once, pinned and
   not yet checked (UNCHECKED): the caller may start work with its payload and must call
   hyb_residency_cache_confirm before it trusts what it computed; the change check then
   runs beside that work (it reads page tables or the arrays, not the payload). FILL and
   BYPASS as acquire. */
hyb_residency_outcome_t hyb_residency_cache_acquire_unchecked( hyb_residency_cache_t*       c,
                                                               const hyb_residency_range_t* ranges,
                                                               int nranges, uint64_t key,
                                                               hyb_residency_entry_t** entry );

/* As hyb_residency_cache_acquire_unchecked, but a FILL entry comes back unarmed: the
   caller (or the thread it hands the entry to) arms it with hyb_residency_cache_arm before
   it reads the host data. Arming registers the ranges with the change tracker (tens of
   microseconds a megabyte of small pages, or a hash of every byte): this lets it run off the
   caller's path. hyb_residency_cache_fill refuses an entry never armed. */
hyb_residency_outcome_t hyb_residency_cache_acquire_unarmed( hyb_residency_cache_t*       c,
                                                             const hyb_residency_range_t* ranges,
                                                             int nranges, uint64_t key,
                                                             hyb_residency_entry_t** entry );

/* Arm an entry from acquire_unarmed's FILL (an armed one: nothing to do): a write to its
   ranges from here on shows. `caller`: 1 on the thread of the call that handed the ranges
   over, during that call (they are mapped: the watch is made as by watch_create); 0 on any
   other thread (watch_create_safe). HYB_OK, or the tracker's error (the caller then
   releases the entry, which abandons it). Only the thread filling the entry calls it. */
hyb_status_t hyb_residency_cache_arm( hyb_residency_cache_t* c, hyb_residency_entry_t* e,
                                      int caller );

/* Whether copies of the entry's ranges (copies[i]: the bytes of range i as the filler read
   them) agree with what its watch hashed when it was armed, on every hashed byte. A watch
   proves its kernel-tracked pages unchanged from the arm on, but hashed bytes only equal
   to the armed ones when checked: a value changed and changed back while the filler read it
   would pass a later check. So a filler that reads after arming compares what it read. 1:
   they agree (or nothing is hashed); 0: they do not, or the entry is not one being filled
   and armed. */
int hyb_residency_cache_matches_copy( hyb_residency_cache_t* c, hyb_residency_entry_t* e,
                                      const void* const* copies );

/* The watch of an entry being filled and armed (NULL otherwise), for its hashed ends
   (hyb_residency_watch_ends, watch_matches_ends). Only the thread filling the entry uses it,
   until it fills or releases the entry. */
const hyb_residency_watch_t* hyb_residency_cache_watch( hyb_residency_cache_t* c,
                                                        hyb_residency_entry_t* e );

/* The change check of an entry from acquire_unchecked. 1: the ranges are unchanged since
   the payload's data was read (counted as a hit). 0: they changed (counted as an
   invalidation and a miss; the entry leaves the cache, and the caller's pin keeps its
   payload alive until hyb_residency_cache_release). Thread-safe; call it at most once per
   acquire. */
int hyb_residency_cache_confirm( hyb_residency_cache_t* c, hyb_residency_entry_t* e );

/* As hyb_residency_cache_confirm, the change check walked by `team`'s threads
   (hyb_residency_watch_changed_on). */
int hyb_residency_cache_confirm_on( hyb_residency_cache_t* c, hyb_residency_entry_t* e,
                                    hyb_team_t* team );

/* The payload of a pinned entry (NULL while it is being filled). */
void* hyb_residency_entry_payload( const hyb_residency_entry_t* e );

/* Attach a payload of `bytes` bytes to an entry acquired with FILL. Unless
   HYB_E_INVALID is returned, the cache owns the payload from now on: free_fn( payload, ctx )
   runs when the entry is evicted, invalidated or the cache destroyed, and
   never while the entry is pinned. LRU entries are evicted to respect the
   bounds; if that is impossible (the payload alone is larger than
   max_bytes, or the rest is pinned), the entry is kept only until release
   and HYB_E_NO_MEMORY is returned (the payload stays usable for this call).
   Returns HYB_OK, HYB_E_NO_MEMORY, or HYB_E_INVALID (the entry is not one
   being filled by the caller; the payload is then not taken). */
hyb_status_t hyb_residency_cache_fill( hyb_residency_cache_t* c, hyb_residency_entry_t* e,
                                       void* payload, uint64_t bytes, hyb_residency_free_fn free_fn,
                                       void* free_ctx );

/* Unpin an entry from acquire (HIT or FILL). An entry still being filled is
   abandoned. Thread-safe. */
void hyb_residency_cache_release( hyb_residency_cache_t* c, hyb_residency_entry_t* e );

/* Drop every entry (payloads of pinned entries are destroyed at their
   release), e.g. when the device is lost. The keeps-changing history stays. */
void hyb_residency_cache_clear( hyb_residency_cache_t* c );

/* A snapshot of the statistics. Thread-safe. */
void hyb_residency_cache_stats( hyb_residency_cache_t* c, hyb_residency_stats_t* out );

/* The mechanism the cache's watches use (NONE when mode is off). */
hyb_residency_mech_t hyb_residency_cache_mech( const hyb_residency_cache_t* c );

/* "Keeps changing": an entry invalidated after fewer than
   HYB_RESIDENCY_CHURN_MIN_HITS hits earns its key a strike; a well-used
   entry clears the strikes. HYB_RESIDENCY_CHURN_STRIKES strikes in a row ban
   the key: HYB_RESIDENCY_CHURN_BAN_USES << (bans - 1) acquires of it (capped
   at HYB_RESIDENCY_CHURN_BAN_MAX), starting with the one that found the last
   invalidation, bypass the cache. After a ban one more quick invalidation
   bans again, for twice as long.
   Why these numbers: an entry costs an arm, a check per use and a device
   allocation, and saves one conversion and upload per hit; one that served
   fewer than 2 hits saved at most one conversion. Three of those in a row
   mean the arrays are rewritten between most calls (a Newton loop updating
   values in place). A ban of 16 uses bounds the loss of a wrong ban to 16
   uncached calls, small against the hundreds of calls of a solver that
   does reuse its matrix; doubling keeps a matrix that really churns at a
   few arms per thousand calls. Counted in acquires of the key, not seconds,
   so the rule is deterministic. */
#define HYB_RESIDENCY_CHURN_MIN_HITS 2
#define HYB_RESIDENCY_CHURN_STRIKES  3
#define HYB_RESIDENCY_CHURN_BAN_USES 16
#define HYB_RESIDENCY_CHURN_BAN_MAX  1024
/* Keys remembered for the rule (least recently seen forgotten first). */
#define HYB_RESIDENCY_CHURN_HISTORY 256

#endif
