/* SPDX-License-Identifier: BSD-3-Clause */
/* Vectors of sparse products kept registered (page-locked) across calls, so that y comes
   down by DMA straight into the application's pages and x goes up straight from them; and
   y's per-call proof that the registered pages are still the pages the application's
   addresses map to (x's proof is its fingerprints, kernels/spmv/hyb_spmv_xsum.h). */
#ifndef HYB_SPMV_YREG_H
#define HYB_SPMV_YREG_H

#include <stddef.h>
#include <stdint.h>

#include "hyb_team.h"
#include "kernels/hyb_device.h"

/* Why a proof is needed: a registration pins the physical pages behind [y, y + bytes) at
   the time it is made. If the application later unmaps and maps that range again (free and
   malloc of a large block), or the pages are discarded (MADV_DONTNEED, as allocators do when
   they purge freed memory before reusing it), the addresses map new pages while the device
   still writes into the old, pinned ones: the application would read stale values.
   The proof: before the downloads, the CPU writes a token (a NaN bit pattern unique to the
   call) through the application's addresses into one element of every page of y; after the
   downloads completed, every token must have been overwritten. A token still in place means
   that page received no DMA, i.e. the registration no longer backs it; the call then stages
   y instead and the registration is dropped. A result equal to the token by chance only
   costs that fallback. Writes to y by the application during the call are a data race it
   already has, and are not covered. */

typedef struct hyb_spmv_yreg_s hyb_spmv_yreg_t;

/* Registered vectors: at most this many, of at most this many bytes in total (pinned pages
   cannot be swapped or reclaimed while registered), least recently used dropped first. */
#define HYB_SPMV_YREG_MAX   8
#define HYB_SPMV_YREG_BYTES ( (size_t)4 << 30 )
/* Vectors smaller than this are staged: registration costs more than the copy it saves. */
#define HYB_SPMV_YREG_MIN ( (size_t)1 << 20 )

/* How a range is registered: at once rather than at its second sighting; and evicting only
   a registration that has long been idle, not simply the least recently used (x: a program
   cycling through more vectors than there are slots, as a restarted Krylov method's basis,
   would otherwise pay a registration at every call). */
#define HYB_SPMV_REG_EAGER      1u
#define HYB_SPMV_REG_EVICT_IDLE 2u

/* The registration covering exactly [y, y + bytes) of elements of `elem` bytes, for the
   device of context d: the existing one, or a new one when this range was seen before
   (HYB_SPMV_REG_EAGER: at once) and fits the bounds. Overlapping older registrations are
   dropped first. Returns a held entry, or NULL: stage y (too small, misaligned, first
   sighting, no room, registration refused). Thread-safe. */
hyb_spmv_yreg_t* hyb_spmv_yreg_get( hyb_dev_t* d, void* y, size_t bytes, size_t elem,
                                    unsigned flags );

/* Write the call's tokens into [y, y + span) of the registered range (one element per page:
   the part the call's downloads cover), on the team's threads when given (NULL: OpenMP's).
   Call after get and before the first download into y is issued. Returns the token count.
   Thread-safe for distinct y. */
int64_t hyb_spmv_yreg_arm( hyb_spmv_yreg_t* e, size_t span, hyb_team_t* team );

/* After every download into y completed: 1 if each page received its download (the
   proof holds), 0 if not. Thread-safe for distinct y. */
int hyb_spmv_yreg_check( hyb_spmv_yreg_t* e, hyb_team_t* team );

/* The proof by parts, each as soon as its download completed (the later downloads still
   in flight): the tokens held by elements [i0, i1) of y, read on the calling thread; adds
   how many were read to *seen. 1 if none is still in place. The parts' results and-ed
   together, and their *seen equal to arm's count (else the whole check is due), go to
   hyb_spmv_yreg_verdict. Thread-safe for distinct y. */
int hyb_spmv_yreg_check_rows( const hyb_spmv_yreg_t* e, int64_t i0, int64_t i1, int64_t* seen );

/* A proof made by parts: held (every part held) counted and returned as
   hyb_spmv_yreg_check counts and returns its own. Thread-safe. */
int hyb_spmv_yreg_verdict( int held );

/* Give the entry back; drop != 0 unregisters it (proof failed, or device trouble);
   HYB_SPMV_REG_REFUSE also keeps its range from being registered again for a while (its
   proof failed: the program may keep replacing its pages). */
#define HYB_SPMV_REG_REFUSE 2
void hyb_spmv_yreg_put( hyb_dev_t* d, hyb_spmv_yreg_t* e, int drop );

/* Unregister everything not held (tests; the devices going away). d may be NULL when the
   devices are unusable: the table is then forgotten without device calls. */
void hyb_spmv_yreg_reset( hyb_dev_t* d );

/* Statistics: live registrations, proofs passed and failed. */
void hyb_spmv_yreg_stats( int* live, uint64_t* proved, uint64_t* failed );

/* Registrations made since the process started (tests: a registry that churns). */
uint64_t hyb_spmv_yreg_made( void );

/* Tests: make the next n proofs fail as if the pages had been replaced. */
void hyb_spmv_yreg_fail_next_for_test( int n );

#endif
