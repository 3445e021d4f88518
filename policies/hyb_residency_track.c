/* SPDX-License-Identifier: BSD-3-Clause */
/* Change tracking of host ranges: userfaultfd async write-protect read back
   with PAGEMAP_SCAN, soft-dirty bits, and hashing of the bytes. */
#define _GNU_SOURCE
#include "policies/hyb_residency.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "hyb_countdown.h"
#include "hyb_log.h"
#include "hyb_self_read.h"
#include "hyb_state.h"
#include "hyb_team.h"
#include "hyb_types.h"

/* ------------------------------------------------------------ kernel ABI */
/* Debian 12's headers predate these (Linux 6.7 uapi, include/uapi/linux/fs.h
   and userfaultfd.h). The values are ABI and fixed; the kernel rejects what
   it does not know at run time, so a wrong guess fails the probe, never a
   program. */
#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1
#endif
#ifndef UFFD_FEATURE_WP_UNPOPULATED
#define UFFD_FEATURE_WP_UNPOPULATED ( 1ULL << 13 )
#endif
#ifndef UFFD_FEATURE_WP_ASYNC
#define UFFD_FEATURE_WP_ASYNC ( 1ULL << 15 )
#endif

typedef struct
{
	uint64_t start;
	uint64_t end;
	uint64_t categories;
} hyb_res_page_region_t; /* struct page_region */

typedef struct
{
	uint64_t size;
	uint64_t flags;
	uint64_t start;
	uint64_t end;
	uint64_t walk_end;
	uint64_t vec;
	uint64_t vec_len;
	uint64_t max_pages;
	uint64_t category_inverted;
	uint64_t category_mask;
	uint64_t category_anyof_mask;
	uint64_t return_mask;
} hyb_res_pm_scan_arg_t; /* struct pm_scan_arg */

#define HYB_RES_PAGEMAP_SCAN      _IOWR( 'f', 16, hyb_res_pm_scan_arg_t )
#define HYB_RES_PAGE_IS_WPALLOWED ( 1ULL << 0 )
#define HYB_RES_PAGE_IS_WRITTEN   ( 1ULL << 1 )
#define HYB_RES_PAGE_IS_PRESENT   ( 1ULL << 3 )
#define HYB_RES_PAGE_IS_SWAPPED   ( 1ULL << 4 )
#define HYB_RES_PAGE_IS_HUGE      ( 1ULL << 6 )
#define HYB_RES_PM_SCAN_WP        ( 1ULL << 0 ) /* PM_SCAN_WP_MATCHING */
#define HYB_RES_PM_SCAN_CHECK_WP  ( 1ULL << 1 ) /* PM_SCAN_CHECK_WPASYNC */

/* /proc/self/pagemap entry bits (Documentation/admin-guide/mm/pagemap.rst). */
#define HYB_RES_PM_PRESENT    ( 1ULL << 63 )
#define HYB_RES_PM_SWAPPED    ( 1ULL << 62 )
#define HYB_RES_PM_SOFT_DIRTY ( 1ULL << 55 )

/* ------------------------------------------------------------ hashing */

#define HYB_RES_K0 0x9E3779B97F4A7C15ULL /* odd: multiplication is a bijection */
#define HYB_RES_K1 0xD1B54A32D192ED03ULL
#define HYB_RES_K2 0xC2B2AE3D27D4EB4FULL

/* Hashed in blocks so the value is the same serial or parallel. */
#define HYB_RES_HASH_BLOCK   ( (size_t)1 << 20 )
#define HYB_RES_HASH_PAR_MIN ( (size_t)4 << 20 )

static inline uint64_t hyb_res_rotl( uint64_t x, int r )
{
	return ( x << r ) | ( x >> ( 64 - r ) );
}

/* A bijection of 64-bit words that mixes every input bit into every output
   bit (xor-shift / odd-multiply rounds). */
static inline uint64_t hyb_res_avalanche( uint64_t x )
{
	x ^= x >> 32;
	x *= HYB_RES_K1;
	x ^= x >> 29;
	x *= HYB_RES_K2;
	x ^= x >> 32;
	return x;
}

/* Bijective in h for fixed v and in v for fixed h: folding a sequence of
   values therefore changes whenever exactly one of them changes. */
static inline uint64_t hyb_res_fold( uint64_t h, uint64_t v )
{
	return hyb_res_avalanche( h ^ v );
}

/* One lane step, bijective in the lane state and in the word. */
static inline uint64_t hyb_res_lane( uint64_t a, uint64_t w )
{
	return hyb_res_rotl( ( a ^ w ) * HYB_RES_K0, 29 );
}

static inline uint64_t hyb_res_load64( const unsigned char* p )
{
	uint64_t w;
	memcpy( &w, p, sizeof w );
	return w;
}

/* Hash of one block. Four independent lanes keep the multiplier busy; a word
   changes exactly one lane, and every later step of that lane is a
   bijection, so the lane's final state (and the fold of the four) differs. */
static uint64_t hyb_res_hash_block( const unsigned char* p, size_t n, uint64_t seed )
{
	uint64_t lane[4] = { seed ^ HYB_RES_K0, seed ^ HYB_RES_K1, seed ^ HYB_RES_K2,
		                 ~seed ^ HYB_RES_K0 };
	size_t   i       = 0;
	for ( ; i + 32 <= n; i += 32 )
	{
		lane[0] = hyb_res_lane( lane[0], hyb_res_load64( p + i ) );
		lane[1] = hyb_res_lane( lane[1], hyb_res_load64( p + i + 8 ) );
		lane[2] = hyb_res_lane( lane[2], hyb_res_load64( p + i + 16 ) );
		lane[3] = hyb_res_lane( lane[3], hyb_res_load64( p + i + 24 ) );
	}
	int l = 0;
	for ( ; i + 8 <= n; i += 8, l++ ) lane[l] = hyb_res_lane( lane[l], hyb_res_load64( p + i ) );
	if ( i < n )
	{
		uint64_t w = 0;
		memcpy( &w, p + i, n - i );
		lane[l] = hyb_res_lane( lane[l], w );
	}
	uint64_t h = hyb_res_avalanche( (uint64_t)n ^ seed );
	for ( l = 0; l < 4; l++ ) h = hyb_res_fold( h, lane[l] );
	return h;
}

static int hyb_res_forked( void );

uint64_t hyb_residency_hash_bytes( const void* p, size_t n )
{
	const unsigned char* b  = p;
	size_t               nb = n == 0 ? 1 : ( n + HYB_RES_HASH_BLOCK - 1 ) / HYB_RES_HASH_BLOCK;
	uint64_t             h  = hyb_res_avalanche( (uint64_t)n + HYB_RES_K2 );
	if ( nb == 1 ) return hyb_res_fold( h, hyb_res_hash_block( b, n, 0 ) );

	/* libgomp does not survive fork() in a process that used it: a child
	   hashes on one thread. */
	uint64_t  local[64];
	uint64_t* bh  = nb <= 64 ? local : malloc( nb * sizeof *bh );
	int       par = n >= HYB_RES_HASH_PAR_MIN && !hyb_res_forked() && bh != NULL;
	if ( bh == NULL )
	{
		for ( size_t k = 0; k < nb; k++ )
		{
			size_t len = k + 1 < nb ? HYB_RES_HASH_BLOCK : n - k * HYB_RES_HASH_BLOCK;
			h = hyb_res_fold( h, hyb_res_hash_block( b + k * HYB_RES_HASH_BLOCK, len, k ) );
		}
		return h;
	}
#pragma omp parallel for schedule( static ) if ( par )
	for ( size_t k = 0; k < nb; k++ )
	{
		size_t len = k + 1 < nb ? HYB_RES_HASH_BLOCK : n - k * HYB_RES_HASH_BLOCK;
		bh[k]      = hyb_res_hash_block( b + k * HYB_RES_HASH_BLOCK, len, k );
	}
	for ( size_t k = 0; k < nb; k++ ) h = hyb_res_fold( h, bh[k] );
	if ( bh != local ) free( bh );
	return h;
}

/* Tests: reads of the safe hash to refuse (hyb_residency_refuse_safe_reads_for_test). */
static atomic_int hyb_res_refuse_reads;

void hyb_residency_refuse_safe_reads_for_test( int n )
{
	atomic_store( &hyb_res_refuse_reads, n );
}

/* hyb_residency_hash_bytes of bytes the program may unmap meanwhile: read a block at a time
   by hyb_self_read (never a fault), on this thread. HYB_OK and *out set, else
   hyb_self_read's error, or HYB_E_NO_MEMORY for the block's buffer. */
static hyb_status_t hyb_res_hash_bytes_safe( const void* p, size_t n, uint64_t* out )
{
	if ( hyb_countdown_take( &hyb_res_refuse_reads ) ) return HYB_E_NOT_SUPPORTED;
	size_t         nb  = n == 0 ? 1 : ( n + HYB_RES_HASH_BLOCK - 1 ) / HYB_RES_HASH_BLOCK;
	uint64_t       h   = hyb_res_avalanche( (uint64_t)n + HYB_RES_K2 );
	unsigned char* buf = malloc( n < HYB_RES_HASH_BLOCK ? ( n > 0 ? n : 1 ) : HYB_RES_HASH_BLOCK );
	hyb_status_t   st  = buf != NULL ? HYB_OK : HYB_E_NO_MEMORY;
	for ( size_t k = 0; k < nb && st == HYB_OK; k++ )
	{
		size_t off = k * HYB_RES_HASH_BLOCK, len = k + 1 < nb ? HYB_RES_HASH_BLOCK : n - off;
		st = hyb_self_read( buf, (const unsigned char*)p + off, len );
		if ( st == HYB_OK ) h = hyb_res_fold( h, hyb_res_hash_block( buf, len, nb == 1 ? 0 : k ) );
	}
	free( buf );
	*out = h;
	return st;
}

/* ------------------------------------------------------------ the tracker */

/* The part of one range a watch follows. [body_lo, body_hi) is the
   page-aligned interior tracked by the kernel mechanism (empty when
   body_lo == body_hi); the bytes outside it are hashed into `hash`. */
typedef struct
{
	const unsigned char* addr;
	size_t               bytes;
	uintptr_t            body_lo;
	uintptr_t            body_hi;
	uint64_t             hash;
} hyb_res_part_t;

struct hyb_residency_watch_s
{
	hyb_residency_mech_t   mech;    /* HASH, SOFTDIRTY or UFFD as requested */
	hyb_residency_mech_t   used;    /* mech if some body is kernel-tracked, else HASH */
	pid_t                  pid;     /* process that armed it */
	atomic_int             changed; /* sticky; set by scans of any watch */
	int                    linked;  /* in the tracker's list (under its lock) */
	hyb_residency_watch_t* prev;
	hyb_residency_watch_t* next;
	int                    nparts;
	hyb_res_part_t         parts[];
};

/* One per process, because the kernel state behind it is per address space:
   a VMA can be registered with one userfaultfd only, and a PAGEMAP_SCAN that
   re-protects a page erases the "written" state every other watch of that
   page needs. So all kernel-tracked watches live in one list, and every scan
   hands what it finds to every watch that covers the pages (see
   hyb_res_mark). */
typedef struct
{
	/* HYB_LOCK_RESIDENCY_TRACK guards the list, scans, registrations */
	pthread_once_t         base_once;
	pthread_once_t         uffd_once;
	pthread_once_t         sd_once;
	atomic_int             pid;  /* process the fds and probes belong to */
	size_t                 page; /* page size */
	int                    pagemap_fd;
	dev_t                  pagemap_dev;
	ino_t                  pagemap_ino;
	int                    uffd;
	dev_t                  uffd_dev;
	ino_t                  uffd_ino;
	atomic_int             uffd_ok;   /* probe passed and nothing went wrong since */
	atomic_int             uffd_full; /* walk every page (see hyb_res_uffd_scan) */
	atomic_int             sd_ok;
	atomic_int             forked;          /* set by the fork() child hook */
	atomic_int             sd_clears;       /* writes to /proc/self/clear_refs */
	atomic_int             forbidden;       /* bit per mechanism: unavailable (tests) */
	double                 foreign_scan_at; /* hyb_now() of the last look for the program's uffd */
	hyb_residency_watch_t* head;            /* linked kernel-tracked watches */
} hyb_res_tracker_t;

static hyb_res_tracker_t hyb_res_tr = {
	.base_once  = PTHREAD_ONCE_INIT,
	.uffd_once  = PTHREAD_ONCE_INIT,
	.sd_once    = PTHREAD_ONCE_INIT,
	.pagemap_fd = -1,
	.uffd       = -1,
};

/* fork() child hook: from then on this process never touches the parent's
   descriptors or OpenMP pool (kernel watches report changed, hashing runs
   on one thread). Without the hook (a program that forks through a raw
   system call) the child is still recognised by its pid. */
static void hyb_res_fork_child( void )
{
	atomic_store( &hyb_res_tr.forked, 1 );
}

static void hyb_res_base_init( void )
{
	hyb_state_on_fork_child( HYB_LOCK_RESIDENCY_TRACK, hyb_res_fork_child );
	atomic_store( &hyb_res_tr.pid, (int)getpid() );
	long ps         = sysconf( _SC_PAGESIZE );
	hyb_res_tr.page = ps > 0 ? (size_t)ps : 4096;
	int         fd  = open( "/proc/self/pagemap", O_RDONLY | O_CLOEXEC );
	struct stat st;
	if ( fd >= 0 && fstat( fd, &st ) == 0 )
	{
		hyb_res_tr.pagemap_fd  = fd;
		hyb_res_tr.pagemap_dev = st.st_dev;
		hyb_res_tr.pagemap_ino = st.st_ino;
	}
	else if ( fd >= 0 )
		close( fd );
}

/* 1 in a child of the process that initialised the tracker. The pagemap
   descriptor opened as /proc/self/pagemap still points at the parent's
   address space, and the userfaultfd at the parent's context: using either
   here would re-protect the parent's pages and erase its tracking. */
static int hyb_res_forked( void )
{
	if ( atomic_load_explicit( &hyb_res_tr.forked, memory_order_relaxed ) ) return 1;
	int p = atomic_load_explicit( &hyb_res_tr.pid, memory_order_relaxed );
	return p != 0 && p != (int)getpid();
}

static int hyb_res_fd_is( int fd, dev_t dev, ino_t ino )
{
	struct stat st;
	return fd >= 0 && fstat( fd, &st ) == 0 && st.st_dev == dev && st.st_ino == ino;
}

static void hyb_res_lock( void )
{
	hyb_lock( HYB_LOCK_RESIDENCY_TRACK );
}

static void hyb_res_unlock( void )
{
	hyb_unlock( HYB_LOCK_RESIDENCY_TRACK );
}

/* Mark every linked watch of mechanism mech that tracks a page of [lo, hi)
   as changed. Caller holds the lock. */
static void hyb_res_mark( hyb_residency_mech_t mech, uintptr_t lo, uintptr_t hi )
{
	for ( hyb_residency_watch_t* w = hyb_res_tr.head; w; w = w->next )
	{
		if ( w->used != mech ) continue;
		for ( int i = 0; i < w->nparts; i++ )
		{
			const hyb_res_part_t* p = &w->parts[i];
			if ( p->body_lo < hi && lo < p->body_hi )
			{
				atomic_store( &w->changed, 1 );
				break;
			}
		}
	}
}

static void hyb_res_link( hyb_residency_watch_t* w )
{
	w->prev = NULL;
	w->next = hyb_res_tr.head;
	if ( hyb_res_tr.head ) hyb_res_tr.head->prev = w;
	hyb_res_tr.head = w;
	w->linked       = 1;
}

static void hyb_res_unlink( hyb_residency_watch_t* w )
{
	if ( !w->linked ) return;
	if ( w->prev )
		w->prev->next = w->next;
	else
		hyb_res_tr.head = w->next;
	if ( w->next ) w->next->prev = w->prev;
	w->prev = w->next = NULL;
	w->linked         = 0;
}

/* Called when a descriptor stopped being ours (the program closed it and
   the number was reused) or the kernel refused a scan in a way that may
   have lost state: nothing tracked can be trusted any more. Caller holds
   the lock. */
static void hyb_res_disable( hyb_residency_mech_t mech, const char* why, int err )
{
	if ( mech == HYB_RESIDENCY_MECH_UFFD )
		atomic_store( &hyb_res_tr.uffd_ok, 0 );
	else
		atomic_store( &hyb_res_tr.sd_ok, 0 );
	hyb_res_mark( mech, 0, UINTPTR_MAX );
	hyb_log_once( hyb_hash_str( why, (uint64_t)mech ), HYB_LOG_WARN,
	              "residency: %s tracking disabled (%s: %s); falling back to hashing",
	              hyb_residency_mech_name( mech ), why, strerror( err ) );
}

/* ------------------------------------------------------------ mappings */

/* One line of /proc/self/maps: [lo, hi) and whether the kernel mechanisms
   can follow it. Only private anonymous memory qualifies: a file or shared
   mapping can change through another mapping, write(2) to the file or
   another process without touching our page tables. */
typedef struct
{
	uintptr_t lo;
	uintptr_t hi;
	int       ok;
} hyb_res_vma_t;

static int hyb_res_parse_hex( const char** s, uint64_t* v )
{
	const char* p = *s;
	uint64_t    x = 0;
	int         n = 0;
	for ( ;; p++, n++ )
	{
		int d;
		if ( *p >= '0' && *p <= '9' )
			d = *p - '0';
		else if ( *p >= 'a' && *p <= 'f' )
			d = *p - 'a' + 10;
		else
			break;
		x = ( x << 4 ) | (uint64_t)d;
	}
	*s = p;
	*v = x;
	return n > 0;
}

/* Parse one maps line "lo-hi perms offset dev inode [name]". */
static int hyb_res_parse_vma( const char* line, const char* end, hyb_res_vma_t* v )
{
	const char* p = line;
	uint64_t    lo, hi, off, inode = 0;
	if ( !hyb_res_parse_hex( &p, &lo ) || *p++ != '-' || !hyb_res_parse_hex( &p, &hi ) ) return 0;
	if ( *p++ != ' ' || end - p < 5 ) return 0;
	char perm_r = p[0], perm_p = p[3];
	p += 4;
	if ( *p++ != ' ' || !hyb_res_parse_hex( &p, &off ) || *p++ != ' ' ) return 0;
	while ( p < end && *p != ' ' ) p++; /* device "maj:min" */
	if ( p >= end || *p++ != ' ' ) return 0;
	for ( ; p < end && *p >= '0' && *p <= '9'; p++ ) inode = inode * 10 + (uint64_t)( *p - '0' );
	while ( p < end && *p == ' ' ) p++;
	/* Named pseudo-mappings of the kernel ([vdso], [vvar], [vsyscall],
	   [uprobes]) are not data; [heap], [stack...] and [anon:...] are. */
	int special = p < end && *p == '[' && strncmp( p, "[heap]", 6 ) != 0 &&
	              strncmp( p, "[stack", 6 ) != 0 && strncmp( p, "[anon:", 6 ) != 0;
	v->lo = (uintptr_t)lo;
	v->hi = (uintptr_t)hi;
	v->ok = perm_r == 'r' && perm_p == 'p' && inode == 0 && !special;
	return 1;
}

/* Read /proc/self/maps into an array (malloc'ed; *n entries). Returns 0 or
   -errno. */
static int hyb_res_read_maps( hyb_res_vma_t** out, size_t* n )
{
	int fd = open( "/proc/self/maps", O_RDONLY | O_CLOEXEC );
	if ( fd < 0 ) return -errno;
	size_t cap = 64 * 1024, len = 0;
	char*  buf = malloc( cap );
	int    err = 0;
	while ( buf )
	{
		if ( len == cap )
		{
			char* nb = realloc( buf, cap * 2 );
			if ( !nb ) break;
			buf = nb;
			cap *= 2;
		}
		ssize_t r = read( fd, buf + len, cap - len );
		if ( r < 0 && errno == EINTR ) continue;
		if ( r < 0 ) err = -errno;
		if ( r <= 0 ) break;
		len += (size_t)r;
	}
	close( fd );
	if ( !buf ) return -ENOMEM;
	if ( err || len == cap )
	{
		free( buf );
		return err ? err : -ENOMEM;
	}

	size_t lines = 0;
	for ( size_t i = 0; i < len; i++ ) lines += buf[i] == '\n';
	hyb_res_vma_t* v = malloc( ( lines + 1 ) * sizeof *v );
	size_t         k = 0;
	if ( v )
	{
		const char* p   = buf;
		const char* end = buf + len;
		while ( p < end )
		{
			const char* nl = memchr( p, '\n', (size_t)( end - p ) );
			if ( !nl ) nl = end;
			if ( hyb_res_parse_vma( p, nl, &v[k] ) ) k++;
			p = nl + 1;
		}
	}
	free( buf );
	if ( !v ) return -ENOMEM;
	*out = v;
	*n   = k;
	return 0;
}

/* Whether [lo, hi) lies entirely in trackable mappings (maps is sorted). */
static int hyb_res_span_trackable( const hyb_res_vma_t* v, size_t n, uintptr_t lo, uintptr_t hi )
{
	uintptr_t cur = lo;
	for ( size_t i = 0; i < n && cur < hi; i++ )
	{
		if ( v[i].hi <= cur ) continue;
		if ( v[i].lo > cur || !v[i].ok ) return 0;
		cur = v[i].hi;
	}
	return cur >= hi;
}

/* ------------------------------------------------------------ uffd-wp */

typedef void ( *hyb_res_bad_fn )( uintptr_t lo, uintptr_t hi, void* arg );

/* Full walk: a page is provably unchanged if its VMA is still registered
   for async write-protect (a munmap + mmap at the same address yields an
   unregistered VMA), it was not written, and it holds a page, a swap entry
   or a write-protect marker. An entry with none of these was zapped
   (MADV_DONTNEED, MADV_FREE reclaim): its contents are now zeros. */
static int hyb_res_uffd_region_bad( uint64_t c )
{
	return !( c & HYB_RES_PAGE_IS_WPALLOWED ) || ( c & HYB_RES_PAGE_IS_WRITTEN ) ||
	       !( c & ( HYB_RES_PAGE_IS_PRESENT | HYB_RES_PAGE_IS_SWAPPED ) );
}

/* One PAGEMAP_SCAN pass over the page-aligned [lo, hi): reports every run of
   pages that is not provably unchanged (bad() is called with it) and
   write-protects the whole range again, markers on unpopulated pages
   included, atomically with the report.
   Fast (the default): asks only for written pages, which the kernel walks
   on its fast path (about 7x cheaper than a full report here). It relies
   on the kernel reporting zapped pages as written: a pte_none in a uffd-wp
   VMA always is, a PMD left without a page table (a zapped THP) only since
   a 2026 fix; the probe checks this and selects the full walk otherwise.
   A VMA no longer registered fails the call (PM_SCAN_CHECK_WPASYNC); a
   range with no mapping at all is caught by msync(MS_ASYNC), which only
   validates the range on anonymous memory.
   Full: every page is reported with its categories and judged by
   hyb_res_uffd_region_bad; gaps between reports are holes.
   Returns 0, or -errno with everything from the failing call on reported
   bad (a failed call may already have re-protected pages it could not
   report). Caller holds the lock (or runs the probe). */
static int hyb_res_uffd_scan( uintptr_t lo, uintptr_t hi, hyb_res_bad_fn bad, void* arg )
{
	int full = atomic_load_explicit( &hyb_res_tr.uffd_full, memory_order_relaxed );
	if ( !full && msync( (void*)lo, hi - lo, MS_ASYNC ) != 0 ) bad( lo, hi, arg );

	hyb_res_page_region_t vec[64];
	uintptr_t             start = lo; /* where the next call begins */
	uintptr_t             cur   = lo; /* full walk: everything below is accounted for */
	while ( start < hi )
	{
		hyb_res_pm_scan_arg_t a;
		memset( &a, 0, sizeof a );
		a.size    = sizeof a;
		a.flags   = HYB_RES_PM_SCAN_WP | HYB_RES_PM_SCAN_CHECK_WP;
		a.start   = start;
		a.end     = hi;
		a.vec     = (uintptr_t)vec;
		a.vec_len = sizeof vec / sizeof vec[0];
		if ( full )
			a.return_mask = HYB_RES_PAGE_IS_WPALLOWED | HYB_RES_PAGE_IS_WRITTEN |
			                HYB_RES_PAGE_IS_PRESENT | HYB_RES_PAGE_IS_SWAPPED;
		else
			a.category_mask = a.return_mask = HYB_RES_PAGE_IS_WRITTEN;
		long n = ioctl( hyb_res_tr.pagemap_fd, HYB_RES_PAGEMAP_SCAN, &a );
		if ( n < 0 && errno == EINTR ) continue;
		if ( n < 0 )
		{
			int err = errno;
			bad( start < cur ? start : cur, hi, arg );
			return -err;
		}
		for ( long i = 0; i < n; i++ )
		{
			if ( full && vec[i].start > cur ) bad( cur, (uintptr_t)vec[i].start, arg );
			if ( !full || hyb_res_uffd_region_bad( vec[i].categories ) )
				bad( (uintptr_t)vec[i].start, (uintptr_t)vec[i].end, arg );
			cur = (uintptr_t)vec[i].end;
		}
		if ( a.walk_end <= start || a.walk_end > hi )
		{
			bad( cur, hi, arg ); /* no progress: never loop forever */
			return -EIO;
		}
		start = (uintptr_t)a.walk_end;
	}
	if ( full && cur < hi ) bad( cur, hi, arg );
	return 0;
}

/* Register the page-aligned [lo, hi) for async write-protect: the matrix's own
   pages and nothing else, so that memory beside it (in the same mapping)
   stays free for the program's own userfaultfd. The kernel splits the
   mapping at the ends; hyb_res_uffd_forget undoes that. Registering again
   is a no-op. Caller holds the lock (or runs the probe). */
static int hyb_res_uffd_register( uintptr_t lo, uintptr_t hi )
{
	struct uffdio_register r;
	memset( &r, 0, sizeof r );
	r.range.start = lo;
	r.range.len   = hi - lo;
	r.mode        = UFFDIO_REGISTER_MODE_WP;
	return ioctl( hyb_res_tr.uffd, UFFDIO_REGISTER, &r ) != 0 ? -errno : 0;
}

/* Undo hyb_res_uffd_register on [lo, hi): remove the write protection (the
   program pays no fault on its next write) and the registration, after which
   the kernel merges the mapping with its neighbours again (a program's
   mremap() of it works again). Fails harmlessly where the program unmapped
   or remapped the range, and never touches another userfaultfd's
   registration (the kernel refuses with EINVAL). Caller holds the lock. */
static void hyb_res_uffd_forget( uintptr_t lo, uintptr_t hi )
{
	struct uffdio_writeprotect wp;
	memset( &wp, 0, sizeof wp );
	wp.range.start = lo;
	wp.range.len   = hi - lo;
	wp.mode        = 0; /* unprotect */
	(void)ioctl( hyb_res_tr.uffd, UFFDIO_WRITEPROTECT, &wp );
	struct uffdio_range r = { .start = lo, .len = hi - lo };
	(void)ioctl( hyb_res_tr.uffd, UFFDIO_UNREGISTER, &r );
}

/* bad() that counts pages. */
static void hyb_res_count_bad( uintptr_t lo, uintptr_t hi, void* arg )
{
	*(size_t*)arg += ( hi - lo ) / hyb_res_tr.page;
}

/* Probe helper: collect bad pages of a 3-page area as a bit mask. */
static void hyb_res_probe_bad( uintptr_t lo, uintptr_t hi, void* arg )
{
	unsigned* mask = arg;
	uintptr_t base = (uintptr_t)mask[1] | ( (uintptr_t)mask[2] << 32 );
	for ( uintptr_t p = lo; p < hi; p += hyb_res_tr.page )
		if ( p >= base && p < base + 3 * hyb_res_tr.page )
			mask[0] |= 1u << ( ( p - base ) / hyb_res_tr.page );
}

/* The functional test: arm three pages, store to the first, read(2) into
   the second, leave the third; exactly the first two must read back as
   written, and a second scan must find nothing. */
static int hyb_res_uffd_selftest( void )
{
	size_t         ps = hyb_res_tr.page;
	unsigned char* a =
	    mmap( NULL, 3 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0 );
	if ( a == MAP_FAILED ) return -errno;
	int       rc     = -EIO;
	int       pfd[2] = { -1, -1 };
	uintptr_t lo = (uintptr_t)a, hi = lo + 3 * ps;
	unsigned  mask[3] = { 0, (unsigned)lo, (unsigned)( (uint64_t)lo >> 32 ) };
	a[0]              = 1;
	if ( ( rc = hyb_res_uffd_register( lo, hi ) ) != 0 ) goto out;
	if ( ( rc = hyb_res_uffd_scan( lo, hi, hyb_res_probe_bad, mask ) ) != 0 ) goto out;
	mask[0] = 0;
	if ( ( rc = hyb_res_uffd_scan( lo, hi, hyb_res_probe_bad, mask ) ) != 0 ) goto out;
	rc = -EIO;
	if ( mask[0] != 0 ) goto out;
	a[7] = 2;
	if ( pipe2( pfd, O_CLOEXEC ) != 0 || write( pfd[1], "hyblas!", 8 ) != 8 ) goto out;
	if ( read( pfd[0], a + ps + 100, 8 ) != 8 ) goto out; /* read(2) must still work */
	if ( ( rc = hyb_res_uffd_scan( lo, hi, hyb_res_probe_bad, mask ) ) != 0 ) goto out;
	rc = mask[0] == 3u ? 0 : -EIO;
out:
	if ( pfd[0] >= 0 ) close( pfd[0] );
	if ( pfd[1] >= 0 ) close( pfd[1] );
	munmap( a, 3 * ps ); /* also ends the registration */
	return rc;
}

/* Whether the fast scan sees a zapped PMD: arm a 2 MiB-aligned range
   advised for THP, zap it whole with MADV_DONTNEED, and the whole range
   must read as written. A THP must have been involved (PAGE_IS_HUGE), or
   THP be off for good; otherwise the answer is unknown and 0 is returned,
   so the full walk is used. */
static int hyb_res_uffd_zap_selftest( void )
{
	const size_t   huge = (size_t)2 << 20;
	unsigned char* raw =
	    mmap( NULL, 2 * huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0 );
	if ( raw == MAP_FAILED ) return 0;
	uintptr_t      lo = ( (uintptr_t)raw + huge - 1 ) & ~( (uintptr_t)huge - 1 ), hi = lo + huge;
	unsigned char* a            = (unsigned char*)lo;
	int            thp_possible = madvise( a, huge, MADV_HUGEPAGE ) == 0;
	memset( a, 1, huge );
	size_t pages = 0;
	int    ok    = 0;
	if ( hyb_res_uffd_register( lo, hi ) != 0 ||
	     hyb_res_uffd_scan( lo, hi, hyb_res_count_bad, &pages ) != 0 )
		goto out;

	hyb_res_page_region_t r;
	hyb_res_pm_scan_arg_t q;
	memset( &q, 0, sizeof q );
	q.size          = sizeof q;
	q.start         = lo;
	q.end           = hi;
	q.vec           = (uintptr_t)&r;
	q.vec_len       = 1;
	q.category_mask = q.return_mask = HYB_RES_PAGE_IS_HUGE;
	int is_huge                     = ioctl( hyb_res_tr.pagemap_fd, HYB_RES_PAGEMAP_SCAN, &q ) > 0;
	if ( thp_possible && !is_huge )
	{
		/* THP is on but none was had now: it may be later. */
		char line[128] = "";
		int  fd = open( "/sys/kernel/mm/transparent_hugepage/enabled", O_RDONLY | O_CLOEXEC );
		if ( fd >= 0 )
		{
			ssize_t n           = read( fd, line, sizeof line - 1 );
			line[n > 0 ? n : 0] = 0;
			close( fd );
		}
		if ( strstr( line, "[never]" ) == NULL ) goto out;
	}
	pages = 0;
	if ( madvise( a, huge, MADV_DONTNEED ) != 0 ||
	     hyb_res_uffd_scan( lo, hi, hyb_res_count_bad, &pages ) != 0 )
		goto out;
	ok = pages == huge / hyb_res_tr.page;
out:
	munmap( raw, 2 * huge );
	return ok;
}

static void hyb_res_uffd_probe( void )
{
	pthread_once( &hyb_res_tr.base_once, hyb_res_base_init );
	const char* why = "pagemap";
	int         err = ENOENT;
	if ( hyb_res_tr.pagemap_fd < 0 ) goto fail;
	/* User-mode-only: allowed without privilege even when
	   vm.unprivileged_userfaultfd is 0; asynchronous write-protect faults
	   are resolved inside the kernel before that restriction is looked at,
	   so read(2) into a protected page still succeeds (the probe checks). */
	why    = "userfaultfd";
	int fd = (int)syscall( SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY );
	if ( fd < 0 )
	{
		err = errno;
		goto fail;
	}
	struct uffdio_api api;
	memset( &api, 0, sizeof api );
	api.api      = UFFD_API;
	api.features = UFFD_FEATURE_WP_ASYNC | UFFD_FEATURE_WP_UNPOPULATED;
	struct stat st;
	why = "UFFDIO_API (needs Linux >= 6.7)";
	if ( ioctl( fd, UFFDIO_API, &api ) != 0 || fstat( fd, &st ) != 0 )
	{
		err = errno;
		close( fd );
		goto fail;
	}
	hyb_res_tr.uffd     = fd;
	hyb_res_tr.uffd_dev = st.st_dev;
	hyb_res_tr.uffd_ino = st.st_ino;
	why                 = "self-test";
	int rc              = hyb_res_uffd_selftest();
	if ( rc != 0 )
	{
		err = -rc;
		close( fd );
		hyb_res_tr.uffd = -1;
		goto fail;
	}
	int fast = hyb_res_uffd_zap_selftest();
	atomic_store( &hyb_res_tr.uffd_full, !fast );
	atomic_store( &hyb_res_tr.uffd_ok, 1 );
	HYB_LOG( HYB_LOG_INFO, "residency: uffd-wp + PAGEMAP_SCAN change tracking available (%s scan)",
	         fast ? "fast" : "full" );
	return;
fail:
	HYB_LOG( HYB_LOG_INFO, "residency: uffd-wp tracking unavailable (%s: %s)", why,
	         strerror( err ) );
}

/* ------------------------------------------------------------ soft-dirty */

/* Read the pagemap entries of [lo, hi) and report runs of pages that are
   soft-dirty or hold neither a page nor a swap entry (unmapped, zapped).
   Returns 0 or -errno (everything unread reported bad). */
static int hyb_res_sd_scan( uintptr_t lo, uintptr_t hi, hyb_res_bad_fn bad, void* arg )
{
	uint64_t  e[512];
	size_t    ps  = hyb_res_tr.page;
	uintptr_t run = 0; /* start of the current bad run, 0 if none */
	for ( uintptr_t p = lo; p < hi; )
	{
		size_t cnt = ( hi - p ) / ps;
		if ( cnt > sizeof e / sizeof e[0] ) cnt = sizeof e / sizeof e[0];
		ssize_t r =
		    pread( hyb_res_tr.pagemap_fd, e, cnt * sizeof e[0], (off_t)( p / ps * sizeof e[0] ) );
		if ( r < 0 && errno == EINTR ) continue;
		if ( r <= 0 || (size_t)r % sizeof e[0] != 0 )
		{
			int err = r < 0 ? errno : EIO;
			bad( run ? run : p, hi, arg );
			return -err;
		}
		cnt = (size_t)r / sizeof e[0];
		for ( size_t i = 0; i < cnt; i++, p += ps )
		{
			int b = !( e[i] & ( HYB_RES_PM_PRESENT | HYB_RES_PM_SWAPPED ) ) ||
			        ( e[i] & HYB_RES_PM_SOFT_DIRTY );
			if ( b && !run ) run = p;
			if ( !b && run )
			{
				bad( run, p, arg );
				run = 0;
			}
		}
	}
	if ( run ) bad( run, hi, arg );
	return 0;
}

/* Clear the soft-dirty bits of the whole process: the program's own
   soft-dirty state too, which is why soft-dirty is used only when asked for
   (HYBLAS_RESIDENCY=track-softdirty). */
static int hyb_res_sd_clear( void )
{
	atomic_fetch_add( &hyb_res_tr.sd_clears, 1 );
	int fd = open( "/proc/self/clear_refs", O_WRONLY | O_CLOEXEC );
	if ( fd < 0 ) return -errno;
	ssize_t w   = write( fd, "4", 1 );
	int     err = w == 1 ? 0 : -( w < 0 ? errno : EIO );
	close( fd );
	return err;
}

/* The functional test: after a clear, a present page must read clean, then
   dirty after a store, and dirty after read(2) into it. On some kernels or
   virtual machines the bit never sets (docs/residency-notes.md): only the
   test tells. */
static void hyb_res_sd_probe( void )
{
	pthread_once( &hyb_res_tr.base_once, hyb_res_base_init );
	size_t         ps  = hyb_res_tr.page;
	const char*    why = "pagemap";
	int            err = ENOENT;
	unsigned char* a;
	int            pfd[2] = { -1, -1 };
	if ( hyb_res_tr.pagemap_fd < 0 ) goto fail;
	why = "mmap";
	a   = mmap( NULL, 2 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0 );
	if ( a == MAP_FAILED )
	{
		err = errno;
		goto fail;
	}
	a[0] = a[ps] = 1;
	uintptr_t lo = (uintptr_t)a;
	size_t    n0 = 0, n1 = 0, n2 = 0;
	why    = "clear_refs";
	int rc = hyb_res_sd_clear();
	if ( rc == 0 ) rc = hyb_res_sd_scan( lo, lo + 2 * ps, hyb_res_count_bad, &n0 );
	a[5] = 2;
	if ( rc == 0 ) rc = hyb_res_sd_scan( lo, lo + ps, hyb_res_count_bad, &n1 );
	if ( rc == 0 && ( pipe2( pfd, O_CLOEXEC ) != 0 || write( pfd[1], "hyblas!", 8 ) != 8 ||
	                  read( pfd[0], a + ps + 9, 8 ) != 8 ) )
		rc = -EIO;
	if ( rc == 0 ) rc = hyb_res_sd_scan( lo + ps, lo + 2 * ps, hyb_res_count_bad, &n2 );
	if ( pfd[0] >= 0 ) close( pfd[0] );
	if ( pfd[1] >= 0 ) close( pfd[1] );
	munmap( a, 2 * ps );
	if ( rc != 0 )
	{
		err = -rc;
		goto fail;
	}
	why = "soft-dirty bit does not follow writes (CONFIG_MEM_SOFT_DIRTY off?)";
	err = ENOTSUP;
	if ( n0 != 0 || n1 != 1 || n2 != 1 ) goto fail;
	atomic_store( &hyb_res_tr.sd_ok, 1 );
	HYB_LOG( HYB_LOG_INFO, "residency: soft-dirty change tracking available" );
	return;
fail:
	HYB_LOG( HYB_LOG_INFO, "residency: soft-dirty tracking unavailable (%s: %s)", why,
	         strerror( err ) );
}

/* ------------------------------------------------------------ mechanisms */

const char* hyb_residency_mech_name( hyb_residency_mech_t m )
{
	static const char* const names[HYB_RESIDENCY_MECH_COUNT] = {
		[HYB_RESIDENCY_MECH_AUTO] = "auto",    [HYB_RESIDENCY_MECH_NONE] = "none",
		[HYB_RESIDENCY_MECH_HASH] = "hash",    [HYB_RESIDENCY_MECH_SOFTDIRTY] = "soft-dirty",
		[HYB_RESIDENCY_MECH_UFFD] = "uffd-wp",
	};
	return (unsigned)m < HYB_RESIDENCY_MECH_COUNT ? names[m] : "unknown";
}

void hyb_residency_forbid_for_test( hyb_residency_mech_t m, int forbid )
{
	if ( forbid )
		atomic_fetch_or( &hyb_res_tr.forbidden, 1 << m );
	else
		atomic_fetch_and( &hyb_res_tr.forbidden, ~( 1 << m ) );
}

int hyb_residency_clear_refs_writes( void )
{
	return atomic_load( &hyb_res_tr.sd_clears );
}

int hyb_residency_mech_available( hyb_residency_mech_t m )
{
	if ( (unsigned)m < HYB_RESIDENCY_MECH_COUNT &&
	     ( atomic_load( &hyb_res_tr.forbidden ) & ( 1 << m ) ) )
		return 0;
	switch ( m )
	{
	case HYB_RESIDENCY_MECH_NONE:
	case HYB_RESIDENCY_MECH_HASH:
		return 1;
	case HYB_RESIDENCY_MECH_UFFD:
		if ( hyb_res_forked() ) return 0;
		pthread_once( &hyb_res_tr.uffd_once, hyb_res_uffd_probe );
		return atomic_load( &hyb_res_tr.uffd_ok ) && !hyb_res_forked();
	case HYB_RESIDENCY_MECH_SOFTDIRTY:
		if ( hyb_res_forked() ) return 0;
		pthread_once( &hyb_res_tr.sd_once, hyb_res_sd_probe );
		return atomic_load( &hyb_res_tr.sd_ok ) && !hyb_res_forked();
	default:
		return 0;
	}
}

int hyb_residency_uffd_full_scan( int full )
{
	if ( full >= 0 ) atomic_store( &hyb_res_tr.uffd_full, full != 0 );
	return atomic_load( &hyb_res_tr.uffd_full );
}

hyb_residency_mech_t hyb_residency_mech_for_mode( hyb_residency_mode_t mode )
{
	switch ( mode )
	{
	case HYB_RESIDENCY_OFF:
		return HYB_RESIDENCY_MECH_NONE;
	case HYB_RESIDENCY_VERIFY:
		return HYB_RESIDENCY_MECH_HASH;
	case HYB_RESIDENCY_TRACK:
	case HYB_RESIDENCY_TRACK_SOFTDIRTY:
		if ( hyb_residency_mech_available( HYB_RESIDENCY_MECH_UFFD ) )
			return HYB_RESIDENCY_MECH_UFFD;
		/* Soft-dirty only when asked for: its probe and every arm clear the
		   soft-dirty state of the whole process, the program's own
		   included (a program that tracks its pages so, or CRIU, would
		   lose what it tracked). Probed only then. */
		if ( mode == HYB_RESIDENCY_TRACK_SOFTDIRTY &&
		     hyb_residency_mech_available( HYB_RESIDENCY_MECH_SOFTDIRTY ) )
			return HYB_RESIDENCY_MECH_SOFTDIRTY;
		return HYB_RESIDENCY_MECH_HASH;
	default:
		return HYB_RESIDENCY_MECH_NONE;
	}
}

/* ------------------------------------------------------------ watches */

/* A hash of n bytes at p into *out: hyb_residency_hash_bytes, or the safe one (which may
   fail). */
typedef hyb_status_t ( *hyb_res_hash_fn )( const void* p, size_t n, uint64_t* out );

static hyb_status_t hyb_res_hash_plain( const void* p, size_t n, uint64_t* out )
{
	*out = hyb_residency_hash_bytes( p, n );
	return HYB_OK;
}

/* Hash of the bytes of a part outside its tracked body, read by `hash` at `head` (the
   part's first bytes, up to its body; all of them where it has none) and `tail` (from its
   body's end): HYB_OK and *out, or the hash's error. */
static hyb_status_t hyb_res_ends_fold( const hyb_res_part_t* p, const void* head, const void* tail,
                                       hyb_res_hash_fn hash, uint64_t* out )
{
	if ( p->body_lo == p->body_hi ) return hash( head, p->bytes, out );
	uintptr_t    a = (uintptr_t)p->addr, e = a + p->bytes;
	uint64_t     h, t;
	hyb_status_t st = hash( head, p->body_lo - a, &h );
	if ( st == HYB_OK ) st = hash( tail, e - p->body_hi, &t );
	if ( st == HYB_OK ) *out = hyb_res_fold( h, t );
	return st;
}

/* The same of bytes that are there to read (a copy, or the part's mapped addresses). */
static uint64_t hyb_res_ends_hash( const hyb_res_part_t* p, const void* head, const void* tail )
{
	uint64_t h = 0;
	hyb_res_ends_fold( p, head, tail, hyb_res_hash_plain, &h );
	return h;
}

/* Hash of the bytes of a part outside its tracked body, through its addresses. */
static uint64_t hyb_res_part_hash( const hyb_res_part_t* p )
{
	return hyb_res_ends_hash( p, p->addr, (const void*)p->body_hi );
}

/* hyb_res_part_hash without a fault where the part is no longer mapped: then
   hyb_res_hash_bytes_safe's error (and *out no hash of the part). */
static hyb_status_t hyb_res_part_hash_safe( const hyb_res_part_t* p, uint64_t* out )
{
	return hyb_res_ends_fold( p, p->addr, (const void*)p->body_hi, hyb_res_hash_bytes_safe, out );
}

/* Choose the bodies: the whole pages inside each range large enough to be
   worth a kernel mechanism. */
static void hyb_res_choose_bodies( hyb_residency_watch_t* w )
{
	size_t ps = hyb_res_tr.page;
	for ( int i = 0; i < w->nparts; i++ )
	{
		hyb_res_part_t* p = &w->parts[i];
		uintptr_t       a = (uintptr_t)p->addr, e = a + p->bytes;
		uintptr_t lo = ( a + ps - 1 ) & ~( (uintptr_t)ps - 1 ), hi = e & ~( (uintptr_t)ps - 1 );
		if ( p->bytes >= HYB_RESIDENCY_TRACK_MIN_BYTES && lo < hi )
		{
			p->body_lo = lo;
			p->body_hi = hi;
		}
		else
			p->body_lo = p->body_hi = 0;
	}
}

/* bad() for scans of a watch being armed: the watch is not linked yet, so
   only the other watches learn about the pages. */
static void hyb_res_mark_uffd( uintptr_t lo, uintptr_t hi, void* arg )
{
	(void)arg;
	hyb_res_mark( HYB_RESIDENCY_MECH_UFFD, lo, hi );
}

static void hyb_res_mark_sd( uintptr_t lo, uintptr_t hi, void* arg )
{
	(void)arg;
	hyb_res_mark( HYB_RESIDENCY_MECH_SOFTDIRTY, lo, hi );
}

/* Whether the descriptors are still the ones we opened; disables the
   mechanism if not. Caller holds the lock. */
static int hyb_res_fds_ok( hyb_residency_mech_t mech )
{
	if ( !hyb_res_fd_is( hyb_res_tr.pagemap_fd, hyb_res_tr.pagemap_dev, hyb_res_tr.pagemap_ino ) ||
	     ( mech == HYB_RESIDENCY_MECH_UFFD &&
	       !hyb_res_fd_is( hyb_res_tr.uffd, hyb_res_tr.uffd_dev, hyb_res_tr.uffd_ino ) ) )
	{
		hyb_res_disable( mech, "descriptor closed by the program", EBADF );
		return 0;
	}
	return 1;
}

/* How often a check looks for a userfaultfd of the program's own: the look
   reads /proc/self/fd (tens of microseconds with a few descriptors,
   docs/residency-notes.md), against a check of a resident matrix at about
   0.4 ms/GiB; four times a second costs under 0.03 % of a core. Every arm
   looks too. */
#define HYB_RES_FOREIGN_PERIOD 0.25

/* Whether the process holds a userfaultfd that is not the tracker's: the
   program tracks pages of its own (or is about to). */
static int hyb_res_foreign_uffd( void )
{
	DIR* d = opendir( "/proc/self/fd" );
	if ( d == NULL ) return 0;
	int            foreign = 0;
	struct dirent* e;
	while ( !foreign && ( e = readdir( d ) ) != NULL )
	{
		if ( e->d_name[0] < '0' || e->d_name[0] > '9' ) continue;
		char    target[64];
		ssize_t n = readlinkat( dirfd( d ), e->d_name, target, sizeof target - 1 );
		if ( n <= 0 ) continue;
		target[n] = '\0';
		if ( strstr( target, "[userfaultfd]" ) == NULL ) continue;
		int fd  = atoi( e->d_name );
		foreign = !( fd == hyb_res_tr.uffd &&
		             hyb_res_fd_is( fd, hyb_res_tr.uffd_dev, hyb_res_tr.uffd_ino ) );
	}
	closedir( d );
	return foreign;
}

/* The program tracks pages with a userfaultfd of its own: hold no
   registration it might want (its UFFDIO_REGISTER of memory we registered
   would fail with EBUSY). Every linked uffd watch is unlinked, its pages
   unprotected and unregistered, and marked changed; it re-arms by hashing
   while the program's descriptor exists, with uffd-wp again once it is gone.
   Caller holds the lock. */
static void hyb_res_uffd_step_aside( const char* why )
{
	for ( hyb_residency_watch_t *w = hyb_res_tr.head, *next; w; w = next )
	{
		next = w->next;
		if ( w->used != HYB_RESIDENCY_MECH_UFFD ) continue;
		atomic_store( &w->changed, 1 );
		for ( int i = 0; i < w->nparts; i++ )
			if ( w->parts[i].body_lo != w->parts[i].body_hi )
				hyb_res_uffd_forget( w->parts[i].body_lo, w->parts[i].body_hi );
		hyb_res_unlink( w );
	}
	hyb_log_once(
	    hyb_hash_str( why, 0x61736964 ), HYB_LOG_INFO,
	    "residency: the program uses userfaultfd itself (%s); uffd-wp tracking steps aside "
	    "(hashing) while it does",
	    why );
}

/* Look for the program's userfaultfd (always, or at most every
   HYB_RES_FOREIGN_PERIOD seconds) and step aside if there is one. Returns 1
   when it stepped aside. Caller holds the lock. */
static int hyb_res_uffd_look( int always )
{
	double now = hyb_now();
	if ( !always && now - hyb_res_tr.foreign_scan_at < HYB_RES_FOREIGN_PERIOD ) return 0;
	hyb_res_tr.foreign_scan_at = now;
	if ( !hyb_res_foreign_uffd() ) return 0;
	hyb_res_uffd_step_aside( "another userfaultfd is open" );
	return 1;
}

/* Arm the kernel-tracked bodies of an unlinked watch. Bodies that cannot be
   tracked are dropped (their bytes get hashed). Caller holds the lock.
   Returns 1 if some body is tracked; on 0 the caller hashes every byte. */
static int hyb_res_arm_kernel( hyb_residency_watch_t* w )
{
	hyb_residency_mech_t mech = w->mech;
	int                  ok   = mech == HYB_RESIDENCY_MECH_UFFD ? atomic_load( &hyb_res_tr.uffd_ok )
	                                                            : atomic_load( &hyb_res_tr.sd_ok );
	int                  any  = 0;
	for ( int i = 0; i < w->nparts; i++ ) any |= w->parts[i].body_lo != w->parts[i].body_hi;
	if ( !any || !ok || !hyb_res_fds_ok( mech ) ) return 0;
	if ( mech == HYB_RESIDENCY_MECH_UFFD && hyb_res_uffd_look( 1 ) ) return 0;

	hyb_res_vma_t* maps  = NULL;
	size_t         nmaps = 0;
	int            rc    = hyb_res_read_maps( &maps, &nmaps );
	if ( rc != 0 ) return 0;

	int tracked = 0, need_clear = 0;
	for ( int i = 0; i < w->nparts; i++ )
	{
		hyb_res_part_t* p = &w->parts[i];
		if ( p->body_lo == p->body_hi ) continue;
		if ( !hyb_res_span_trackable( maps, nmaps, p->body_lo, p->body_hi ) )
		{
			p->body_lo = p->body_hi = 0;
			continue;
		}
		if ( mech == HYB_RESIDENCY_MECH_UFFD )
		{
			rc = hyb_res_uffd_register( p->body_lo, p->body_hi );
			if ( rc == -EBUSY )
			{
				/* A userfaultfd of the program's registered these pages (between
				   the look above and now). */
				hyb_res_uffd_step_aside( "it registered a matrix's pages" );
				for ( int j = 0; j < i; j++ )
					if ( w->parts[j].body_lo != w->parts[j].body_hi )
						hyb_res_uffd_forget( w->parts[j].body_lo, w->parts[j].body_hi );
				tracked = 0;
				break;
			}
			if ( rc == 0 )
				rc = hyb_res_uffd_scan( p->body_lo, p->body_hi, hyb_res_mark_uffd, NULL );
			if ( rc != 0 )
			{
				hyb_log_once( hyb_hash_str( "residency-uffd-arm", (uint64_t)-rc ), HYB_LOG_INFO,
				              "residency: cannot track a range with uffd-wp (%s); hashing it",
				              strerror( -rc ) );
				hyb_res_uffd_forget( p->body_lo, p->body_hi );
				p->body_lo = p->body_hi = 0;
				continue;
			}
		}
		else
		{
			size_t nbad = 0;
			rc          = hyb_res_sd_scan( p->body_lo, p->body_hi, hyb_res_count_bad, &nbad );
			if ( rc != 0 )
			{
				p->body_lo = p->body_hi = 0;
				continue;
			}
			need_clear |= nbad != 0;
		}
		tracked = 1;
	}
	free( maps );

	if ( mech == HYB_RESIDENCY_MECH_SOFTDIRTY && tracked && need_clear )
	{
		/* Clearing is process-wide: every other watch first takes what its
		   pages say now. */
		for ( hyb_residency_watch_t* o = hyb_res_tr.head; o; o = o->next )
		{
			if ( o->used != HYB_RESIDENCY_MECH_SOFTDIRTY || atomic_load( &o->changed ) ) continue;
			for ( int i = 0; i < o->nparts; i++ )
				if ( o->parts[i].body_lo != o->parts[i].body_hi )
					hyb_res_sd_scan( o->parts[i].body_lo, o->parts[i].body_hi, hyb_res_mark_sd,
					                 NULL );
		}
		rc      = hyb_res_sd_clear();
		tracked = 0;
		if ( rc != 0 ) hyb_res_disable( mech, "clear_refs", -rc );
		/* A page still bad after a clear holds nothing (never touched, or
		   zapped): such a body cannot be tracked, its bytes get hashed. */
		for ( int i = 0; i < w->nparts && rc == 0; i++ )
		{
			hyb_res_part_t* p    = &w->parts[i];
			size_t          nbad = 0;
			if ( p->body_lo == p->body_hi ) continue;
			if ( hyb_res_sd_scan( p->body_lo, p->body_hi, hyb_res_count_bad, &nbad ) != 0 || nbad )
				p->body_lo = p->body_hi = 0;
			else
				tracked = 1;
		}
	}
	return tracked;
}

/* (Re)arm: bodies, kernel state, hashes. The watch is unlinked on entry. `safe`: the
   program may unmap the ranges meanwhile, so the hashed bytes are read without a fault;
   then hyb_res_hash_bytes_safe's error where some could not be read (HYB_OK otherwise). */
static hyb_status_t hyb_res_arm( hyb_residency_watch_t* w, int safe )
{
	w->used = HYB_RESIDENCY_MECH_HASH;
	atomic_store( &w->changed, 0 );
	int tracked = 0;
	if ( w->mech != HYB_RESIDENCY_MECH_HASH && !hyb_res_forked() )
	{
		hyb_res_choose_bodies( w );
		hyb_res_lock();
		tracked = hyb_res_arm_kernel( w );
		if ( tracked )
		{
			w->used = w->mech;
			hyb_res_link( w );
		}
		hyb_res_unlock();
	}
	/* Not kernel-tracked (the mechanism is gone, stepped aside, or nothing
	   could be armed): every byte is hashed, bodies included. */
	if ( !tracked )
		for ( int i = 0; i < w->nparts; i++ ) w->parts[i].body_lo = w->parts[i].body_hi = 0;
	/* Hashes last: whatever a hash sees, later writes to the hashed bytes
	   change it, and the tracked bodies are already armed. */
	hyb_status_t st = HYB_OK;
	for ( int i = 0; i < w->nparts && st == HYB_OK; i++ )
		if ( safe )
			st = hyb_res_part_hash_safe( &w->parts[i], &w->parts[i].hash );
		else
			w->parts[i].hash = hyb_res_part_hash( &w->parts[i] );
	return st;
}

static hyb_status_t hyb_res_watch_create( hyb_residency_mech_t         mech,
                                          const hyb_residency_range_t* ranges, int nranges,
                                          int safe, hyb_residency_watch_t** out )
{
	if ( out == NULL || nranges < 0 || ( nranges > 0 && ranges == NULL ) ) return HYB_E_INVALID;
	*out = NULL;
	if ( mech == HYB_RESIDENCY_MECH_AUTO )
		mech = hyb_residency_mech_for_mode( HYB_RESIDENCY_TRACK );
	if ( mech != HYB_RESIDENCY_MECH_HASH && mech != HYB_RESIDENCY_MECH_SOFTDIRTY &&
	     mech != HYB_RESIDENCY_MECH_UFFD )
		return HYB_E_INVALID;
	for ( int i = 0; i < nranges; i++ )
		if ( ( ranges[i].addr == NULL && ranges[i].bytes != 0 ) ||
		     (uintptr_t)ranges[i].addr + ranges[i].bytes < (uintptr_t)ranges[i].addr )
			return HYB_E_INVALID;
	/* Kernel mechanisms that are not available here (or not in this child)
	   degrade to hashing, which is always correct. */
	if ( mech != HYB_RESIDENCY_MECH_HASH && !hyb_residency_mech_available( mech ) )
		mech = HYB_RESIDENCY_MECH_HASH;
	pthread_once( &hyb_res_tr.base_once, hyb_res_base_init );

	hyb_residency_watch_t* w = calloc( 1, sizeof *w + (size_t)nranges * sizeof w->parts[0] );
	if ( w == NULL ) return HYB_E_NO_MEMORY;
	w->mech   = mech;
	w->pid    = getpid();
	w->nparts = nranges;
	atomic_init( &w->changed, 0 );
	for ( int i = 0; i < nranges; i++ )
	{
		w->parts[i].addr  = ranges[i].addr;
		w->parts[i].bytes = ranges[i].bytes;
	}
	hyb_status_t st = hyb_res_arm( w, safe );
	if ( st != HYB_OK )
	{
		hyb_residency_watch_destroy( w );
		return st;
	}
	*out = w;
	return HYB_OK;
}

hyb_status_t hyb_residency_watch_create( hyb_residency_mech_t         mech,
                                         const hyb_residency_range_t* ranges, int nranges,
                                         hyb_residency_watch_t** out )
{
	return hyb_res_watch_create( mech, ranges, nranges, 0, out );
}

hyb_status_t hyb_residency_watch_create_safe( hyb_residency_mech_t         mech,
                                              const hyb_residency_range_t* ranges, int nranges,
                                              hyb_residency_watch_t** out )
{
	return hyb_res_watch_create( mech, ranges, nranges, 1, out );
}

/* A check's scan over a team: the watch's bodies cut into pieces at huge-page boundaries
   (a write-protecting scan that covers part of a huge page splits it), taken in turn by the
   team's threads. A scan walks page tables, about 0.6 ms per GiB of 4 KiB pages on one
   core, and pieces of different pages walk in parallel (each takes the address space's
   lock for reading only). */
#define HYB_RES_SCAN_ALIGN ( (uintptr_t)2 << 20 )

/* Pieces smaller than this are not worth a thread's wake-up. */
static size_t hyb_res_scan_piece_min = (size_t)64 << 20;

void hyb_residency_scan_piece_for_test( size_t bytes )
{
	hyb_res_scan_piece_min = bytes > 0 ? bytes : (size_t)64 << 20;
}

typedef struct
{
	hyb_residency_watch_t* w;
	uintptr_t              piece; /* bytes of a piece, a multiple of HYB_RES_SCAN_ALIGN */
	_Atomic int64_t        next;  /* the next piece to take, counted over all bodies */
	_Atomic int            err;   /* a scan's -EBADF or -ENOTTY */
} hyb_res_scan_job_t;

/* The first piece boundary above lo: pieces end on multiples of `piece`. */
static int64_t hyb_res_pieces_of( uintptr_t lo, uintptr_t hi, uintptr_t piece )
{
	return lo < hi ? (int64_t)( ( hi - 1 ) / piece - lo / piece + 1 ) : 0;
}

/* Scan one body piece [lo, hi) of the watch's mechanism; the mechanism's errors kept. */
static void hyb_res_scan_one( hyb_res_scan_job_t* j, uintptr_t lo, uintptr_t hi )
{
	int rc = j->w->used == HYB_RESIDENCY_MECH_UFFD
	             ? hyb_res_uffd_scan( lo, hi, hyb_res_mark_uffd, NULL )
	             : hyb_res_sd_scan( lo, hi, hyb_res_mark_sd, NULL );
	if ( rc == -EBADF || rc == -ENOTTY ) atomic_store( &j->err, rc );
}

/* One thread: pieces taken in turn until none is left or the watch is found changed. */
static void hyb_res_scan_part( void* arg, int64_t b, int64_t e )
{
	hyb_res_scan_job_t* j = arg;
	for ( int64_t t = b; t < e; t++ )
		for ( ;; )
		{
			int64_t k = atomic_fetch_add( &j->next, 1 );
			if ( atomic_load( &j->w->changed ) ) return;
			int i = 0;
			for ( ; i < j->w->nparts; i++ )
			{
				const hyb_res_part_t* p = &j->w->parts[i];
				int64_t               n = hyb_res_pieces_of( p->body_lo, p->body_hi, j->piece );
				if ( k < n ) break;
				k -= n;
			}
			if ( i == j->w->nparts ) return;
			const hyb_res_part_t* p  = &j->w->parts[i];
			uintptr_t             lo = ( p->body_lo / j->piece + (uintptr_t)k ) * j->piece;
			uintptr_t             hi = lo + j->piece;
			hyb_res_scan_one( j, lo > p->body_lo ? lo : p->body_lo,
			                  hi < p->body_hi ? hi : p->body_hi );
		}
}

/* Scan the tracked bodies of a linked watch, handing what is found to
   every watch; on `team` (NULL: this thread alone). Caller holds the lock,
   which keeps the list of watches still while the team's threads read it. */
static void hyb_res_check_kernel( hyb_residency_watch_t* w, hyb_team_t* team )
{
	if ( !hyb_res_fds_ok( w->used ) ) return; /* disabled: all marked */
	if ( w->used == HYB_RESIDENCY_MECH_UFFD && hyb_res_uffd_look( 0 ) )
		return; /* stepped aside: all marked */
	size_t body = 0;
	for ( int i = 0; i < w->nparts; i++ ) body += w->parts[i].body_hi - w->parts[i].body_lo;
	const int threads = hyb_team_size( team );
	/* about four pieces a thread, so that one slow thread leaves its share to the others */
	uintptr_t piece = body / ( 4 * (size_t)threads );
	if ( piece < hyb_res_scan_piece_min ) piece = hyb_res_scan_piece_min;
	piece = ( piece + HYB_RES_SCAN_ALIGN - 1 ) / HYB_RES_SCAN_ALIGN * HYB_RES_SCAN_ALIGN;
	hyb_res_scan_job_t j = { .w = w, .piece = piece };
	atomic_init( &j.next, 0 );
	atomic_init( &j.err, 0 );
	if ( threads > 1 && body > piece )
		hyb_team_run( team, threads, hyb_res_scan_part, &j );
	else
		for ( int i = 0; i < w->nparts && !atomic_load( &w->changed ); i++ )
			if ( w->parts[i].body_lo < w->parts[i].body_hi )
				hyb_res_scan_one( &j, w->parts[i].body_lo, w->parts[i].body_hi );
	int err = atomic_load( &j.err );
	if ( err != 0 ) hyb_res_disable( w->used, "scan", -err );
}

int hyb_residency_watch_changed( hyb_residency_watch_t* w )
{
	return hyb_residency_watch_changed_on( w, NULL );
}

int hyb_residency_watch_changed_on( hyb_residency_watch_t* w, hyb_team_t* team )
{
	if ( w == NULL ) return 1;
	if ( atomic_load( &w->changed ) ) return 1;
	if ( w->used != HYB_RESIDENCY_MECH_HASH )
	{
		/* A child must not touch the parent's descriptors, and its pages are
		   no longer the ones the parent armed. */
		if ( w->pid != getpid() || hyb_res_forked() ) return 1;
		hyb_res_lock();
		hyb_res_check_kernel( w, team );
		hyb_res_unlock();
		if ( atomic_load( &w->changed ) ) return 1;
	}
	for ( int i = 0; i < w->nparts; i++ )
		if ( hyb_res_part_hash( &w->parts[i] ) != w->parts[i].hash )
		{
			atomic_store( &w->changed, 1 );
			return 1;
		}
	return 0;
}

/* Release the tracked pages of w that no other linked watch tracks: no
   write protection (the program pays no fault on its next write to each)
   and no registration (the mapping merges back; the program may register
   it with a userfaultfd of its own). Caller holds the lock; w is unlinked. */
static void hyb_res_uffd_release( const hyb_residency_watch_t* w )
{
	for ( int i = 0; i < w->nparts; i++ )
	{
		uintptr_t lo = w->parts[i].body_lo, hi = w->parts[i].body_hi;
		while ( lo < hi )
		{
			/* The first other body overlapping [lo, hi): unprotect up to it,
			   then continue past it. */
			uintptr_t olo = hi, ohi = hi;
			for ( const hyb_residency_watch_t* o = hyb_res_tr.head; o; o = o->next )
			{
				if ( o->used != HYB_RESIDENCY_MECH_UFFD ) continue;
				for ( int j = 0; j < o->nparts; j++ )
				{
					uintptr_t bl = o->parts[j].body_lo, bh = o->parts[j].body_hi;
					if ( bl < hi && lo < bh && ( bl < olo || ( bl == olo && bh > ohi ) ) )
					{
						olo = bl < lo ? lo : bl;
						ohi = bh;
					}
				}
			}
			if ( olo > lo ) hyb_res_uffd_forget( lo, olo );
			lo = ohi > olo ? ohi : hi;
		}
	}
}

/* Unlink a watch from the tracker; with unprotect, release its pages. */
static void hyb_res_detach( hyb_residency_watch_t* w, int unprotect )
{
	if ( !w->linked ) return;
	/* In a child the list and the lock are the parent's leftovers: leave
	   them alone (the lock may be held by a thread that does not exist). */
	if ( w->pid != getpid() || hyb_res_forked() ) return;
	hyb_res_lock();
	hyb_res_unlink( w );
	if ( unprotect && w->used == HYB_RESIDENCY_MECH_UFFD && atomic_load( &hyb_res_tr.uffd_ok ) &&
	     hyb_res_fds_ok( HYB_RESIDENCY_MECH_UFFD ) )
		hyb_res_uffd_release( w );
	hyb_res_unlock();
}

hyb_status_t hyb_residency_watch_rearm( hyb_residency_watch_t* w )
{
	if ( w == NULL ) return HYB_E_INVALID;
	/* Unlinked, w is not marked by the re-arm scan, which still hands what
	   w's pages say to the other watches sharing them before re-protecting
	   them. Pages stay protected meanwhile (no unprotect). */
	hyb_res_detach( w, 0 );
	if ( w->pid != getpid() )
	{
		/* Armed by the parent: forget the parent's list, re-arm as this
		   process's own watch (hashing, in a child). */
		w->pid    = getpid();
		w->linked = 0;
	}
	hyb_res_arm( w, 0 );
	return HYB_OK;
}

size_t hyb_residency_watch_ends( const hyb_residency_watch_t* w, int part, size_t* head,
                                 size_t* tail_off )
{
	*head = *tail_off = 0;
	if ( w == NULL || part < 0 || part >= w->nparts ) return 0;
	const hyb_res_part_t* p = &w->parts[part];
	uintptr_t             a = (uintptr_t)p->addr;
	*head                   = p->body_lo == p->body_hi ? p->bytes : p->body_lo - a;
	*tail_off               = p->body_lo == p->body_hi ? p->bytes : p->body_hi - a;
	return p->bytes;
}

int hyb_residency_watch_matches_ends( const hyb_residency_watch_t* w, const void* const* heads,
                                      const void* const* tails )
{
	if ( w == NULL || heads == NULL || tails == NULL ) return 0;
	for ( int i = 0; i < w->nparts; i++ )
	{
		const hyb_res_part_t* p = &w->parts[i];
		uintptr_t             a = (uintptr_t)p->addr, e = a + p->bytes;
		const int             body = p->body_lo != p->body_hi;
		if ( ( !heads[i] && ( body ? p->body_lo > a : p->bytes > 0 ) ) ||
		     ( !tails[i] && body && e > p->body_hi ) )
			return 0;
		if ( hyb_res_ends_hash( p, heads[i], tails[i] ) != p->hash ) return 0;
	}
	return 1;
}

int hyb_residency_watch_matches_copy( const hyb_residency_watch_t* w, const void* const* copies )
{
	if ( w == NULL || copies == NULL ) return 0;
	for ( int i = 0; i < w->nparts; i++ )
	{
		const hyb_res_part_t* p    = &w->parts[i];
		const unsigned char*  copy = copies[i];
		if ( copy == NULL ) return 0;
		const unsigned char* tail =
		    p->body_lo != p->body_hi ? copy + ( p->body_hi - (uintptr_t)p->addr ) : NULL;
		if ( hyb_res_ends_hash( p, copy, tail ) != p->hash ) return 0;
	}
	return 1;
}

hyb_residency_mech_t hyb_residency_watch_mech( const hyb_residency_watch_t* w )
{
	return w ? w->used : HYB_RESIDENCY_MECH_NONE;
}

void hyb_residency_watch_destroy( hyb_residency_watch_t* w )
{
	if ( w == NULL ) return;
	hyb_res_detach( w, 1 );
	free( w );
}
