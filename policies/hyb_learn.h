/* SPDX-License-Identifier: BSD-3-Clause */
/* The learning store: what the families learn from measured calls (rates with their sample
   counts, and the measured choices between sides), keyed by (operation, shape class); the
   one refit rule and the one place that states each family's weight; the one file format
   under the profile. docs/architecture.md, "The learning store", shows how a family uses
   it. */
#ifndef HYB_LEARN_H
#define HYB_LEARN_H

#include <stddef.h>
#include <stdint.h>

#include "hyb_op.h"
#include "hyb_status.h"

/* ------------------------------------------------------------ the rule and its weights */

/* Level 3 (policies/hyb_refit.c: the device scale and the CPU library's strip rate):
   a call is large and its measurement steady, and the split follows a changing machine
   within a few calls; one outlier moves the model by a third. */
#define HYB_LEARN_WEIGHT_L3 0.35

/* Sparse products (dispatch/hyb_spmv_rates.c): calls are short and many (tens of
   microseconds and up), each one noisier, so a new one weighs a quarter. */
#define HYB_LEARN_WEIGHT_SPMV 0.25

/* Tridiagonal (dispatch/hyb_gtsv_rates.c, persisted in the store's file): few calls per
   run, each of millions of rows; one call can be disturbed by other work, so one sample
   moves the rate half way. */
#define HYB_LEARN_WEIGHT_GTSV 0.5

/* The rule: old + w (sample - old) for 0 < w <= 1; the sample itself where the old
   value is not known (!known). Pure. */
static inline double hyb_learn_fold( double old, int known, double sample, double w )
{
	return known ? old + w * ( sample - old ) : sample;
}

/* ------------------------------------------------------------ keys and rates */

/* The named sides a learned value belongs to: the CPU library (or the CPU's share of a
   split), a device, and a third (hyblas's own CPU kernel, a second CPU format). */
typedef enum
{
	HYB_LEARN_CPU   = 0,
	HYB_LEARN_GPU   = 1,
	HYB_LEARN_OTHER = 2,
	HYB_LEARN_SLOTS = 3
} hyb_learn_slot_t;

/* An operation (hyb_op_register's id; a family registers one name for what it learns) and
   a shape class the family computes: a small integer (precision, configuration, size class
   packed into bits) or a hash of a call's shape. */
typedef struct
{
	hyb_op_id_t op;
	uint64_t    cls;
} hyb_learn_key_t;

/* A learned value and the measurements folded into it (0: unknown, value meaningless). */
typedef struct
{
	double  value;
	int64_t samples;
} hyb_learn_rate_t;

/* Values the store keeps: finite, 0 <= v < HYB_LEARN_VALUE_MAX (rates, scales, seconds).
   Anything else is refused on a fold and on a file line. */
#define HYB_LEARN_VALUE_MAX 1e18

/* ------------------------------------------------------------ a table of rates

   The rates of a set of keys: the process store's content, and what the file holds. Pure
   (no lock, no I/O) except read and write. Not thread-safe on the same table. */
#define HYB_LEARN_TABLE_MAX   512
#define HYB_LEARN_PENDING_MAX 128

typedef struct
{
	hyb_learn_key_t  key;
	hyb_learn_rate_t rate[HYB_LEARN_SLOTS];
} hyb_learn_entry_t;

/* A file line of an operation this process has not declared persistent (hyb_learn_persist)
   or not registered: kept as read, written back, adopted when the operation is declared. */
typedef struct
{
	char             op[HYB_OP_NAME_MAX];
	uint64_t         cls;
	hyb_learn_slot_t slot;
	hyb_learn_rate_t rate;
} hyb_learn_line_t;

typedef struct
{
	int               count;
	hyb_learn_entry_t e[HYB_LEARN_TABLE_MAX];
	int               npending;
	hyb_learn_line_t  p[HYB_LEARN_PENDING_MAX];
} hyb_learn_table_t;

/* Empty table. */
void hyb_learn_table_init( hyb_learn_table_t* t );

/* The rate of (key, slot); {0, 0} when unknown or an argument is out of range. */
hyb_learn_rate_t hyb_learn_table_rate( const hyb_learn_table_t* t, hyb_learn_key_t key,
                                       hyb_learn_slot_t slot );

/* Fold a measured sample into (key, slot) by the rule with weight w: the first sample is
   taken as is. HYB_E_INVALID for a bad slot, a sample outside [0, HYB_LEARN_VALUE_MAX) or
   not finite, or w outside (0, 1]; HYB_E_NO_MEMORY when the table is full; else HYB_OK. */
hyb_status_t hyb_learn_table_fold( hyb_learn_table_t* t, hyb_learn_key_t key, hyb_learn_slot_t slot,
                                   double sample, double w );

/* Fold a measured ratio into a correction factor (key, slot), 1 while unknown:
   v <- clamp( fold( v, known, v * ratio, w ), lo, hi ), the prediction that was measured
   having been made with v already. Same errors as hyb_learn_table_fold (ratio > 0). */
hyb_status_t hyb_learn_table_ratio( hyb_learn_table_t* t, hyb_learn_key_t key,
                                    hyb_learn_slot_t slot, double ratio, double w, double lo,
                                    double hi );

/* Known rates in t (slots with samples, and pending lines). */
int hyb_learn_table_count( const hyb_learn_table_t* t );

/* Drop every rate of operation op. */
void hyb_learn_table_forget( hyb_learn_table_t* t, hyb_op_id_t op );

/* The file format, one for every family:
     # hyblas learning store 1
     learn <operation> <class> <slot> <value> <samples>
   operation: its registered name; class: 0x and 1..16 hex digits; slot: cpu, gpu or other;
   value: %.17g (exact on reading back); samples: >= 1. The first line is the header, word
   for word; a file without it is not the store's (a tridiagonal ".gtsv" file of older
   versions, say) and is ignored whole. After it, '#' lines and blank lines are skipped, a
   line that is not a valid entry is skipped (the others are kept), a later duplicate wins.

   Read path into t (t is always left valid). Lines of operations not registered in this
   process go to t->p. HYB_OK; HYB_E_IO when the file is missing or unreadable (t empty);
   HYB_E_PARSE when the file is not the store's or some lines were rejected (t holds the
   good ones); HYB_E_INVALID for NULL arguments. */
hyb_status_t hyb_learn_table_read( const char* path, hyb_learn_table_t* t );

/* Write t to path, replaced whole (core/hyb_file.h): its rates with samples, then its
   pending lines. HYB_OK, HYB_E_IO (the old file intact), HYB_E_FORBIDDEN (secure
   execution: nothing written), HYB_E_INVALID. */
hyb_status_t hyb_learn_table_write( const char* path, const hyb_learn_table_t* t );

/* ------------------------------------------------------------ the process store

   One table of rates and one set of measured choices for the whole process, under
   HYB_LOCK_LEARN (a leaf: the store calls nothing that locks while holding it). The file
   <HYBLAS_PROFILE>.learn holds the rates of the operations declared persistent; it is read
   on first use of such an operation (and again when HYBLAS_PROFILE names another file) and
   written by hyb_learn_commit, both without the lock held, so that fork() never waits for
   file I/O. Every function is thread-safe and usable before init. */

/* The id of a family's learning operation `name`, registered (and declared persistent when
   persist) on the first call and kept in *cache, a static int that starts at
   HYB_LEARN_OP_UNSET and is read and written only here, atomically. Thread-safe. */
#define HYB_LEARN_OP_UNSET ( HYB_OP_NONE - 1 )
hyb_op_id_t hyb_learn_op( int* cache, const char* name, int persist );

/* Declare that op's rates persist: read from the file, written by hyb_learn_commit. Lines
   read before the declaration are adopted. Idempotent; at most 8 operations. */
void hyb_learn_persist( hyb_op_id_t op );

/* The rate of (key, slot); all of key's slots; all slots of n keys of one operation, read
   at once. */
hyb_learn_rate_t hyb_learn_rate( hyb_learn_key_t key, hyb_learn_slot_t slot );
void             hyb_learn_rates( hyb_learn_key_t key, hyb_learn_rate_t out[HYB_LEARN_SLOTS] );
void             hyb_learn_rates_of( const hyb_learn_key_t* keys, int n,
                                     hyb_learn_rate_t ( *out )[HYB_LEARN_SLOTS] );

/* Fold a sample or a ratio into (key, slot) (hyb_learn_table_fold and _ratio). A change to
   a persistent operation is written at the next hyb_learn_commit. */
hyb_status_t hyb_learn_note( hyb_learn_key_t key, hyb_learn_slot_t slot, double sample, double w );
hyb_status_t hyb_learn_note_ratio( hyb_learn_key_t key, hyb_learn_slot_t slot, double ratio,
                                   double w, double lo, double hi );

/* Write the file if persistent rates changed since it was last written (replaced whole; a
   failure to write is logged once and the rates are kept in memory). One thread writes at
   a time; a change made meanwhile makes it write again, so the file ends with the latest
   rates. Nothing when HYBLAS_PROFILE is empty, nor under secure execution. The library
   also commits when it is unloaded (the process's exit), so that a caller may defer its
   writes off the calls it times. */
void hyb_learn_commit( void );

/* The file in use ("" when HYBLAS_PROFILE is empty: no persistence). */
void hyb_learn_path( char* out, size_t len );

/* Forget op's rates (tests, a family's reset); the file is untouched until the next
   commit. */
void hyb_learn_forget( hyb_op_id_t op );

/* Forget the persistent rates; the next use reads the file again (tests switching files).
   Not concurrently with other calls. */
void hyb_learn_unload( void );

/* ------------------------------------------------------------ measured choices

   "Time both sides, keep the faster": a record per key of which side a shape runs while it
   is measured and what it settled on. The rule is the family's (a pure policy function);
   the store keeps the records, with their phase, the side decided and the times it rests
   on, where every family's can be read the same way. Records are not persisted: their
   keys (a call's shape, a matrix's addresses) belong to one process. */
typedef enum
{
	HYB_LEARN_PENDING = 0, /* nothing timed yet */
	HYB_LEARN_MEASURING,   /* calls being timed */
	HYB_LEARN_DECIDED      /* `side` is kept (until the rule measures again) */
} hyb_learn_phase_t;

/* Room for the largest rule record of a family (checked where each is defined). */
#define HYB_LEARN_RULE_BYTES 192

typedef struct
{
	hyb_learn_phase_t phase;
	hyb_learn_slot_t  side;                  /* DECIDED: the side kept */
	double            time[HYB_LEARN_SLOTS]; /* seconds each side is judged by, 0: none */
	union
	{
		max_align_t   align;
		unsigned char bytes[HYB_LEARN_RULE_BYTES];
	} rule; /* the family rule's own record, zeroed when the record is made */
} hyb_learn_choice_t;

/* The family's step: reads and updates c (its rule record, phase, side and times). Runs
   under the store's lock: pure, no lock, no allocation. */
typedef void ( *hyb_learn_rule_t )( hyb_learn_choice_t* c, void* ctx );

/* Records kept per operation: a program near a boundary repeats a few shapes (a solver's
   blocks, a benchmark's sizes, the matrices of an iteration); past this, the operation's
   least recently used record makes room and is measured again if its key comes back. */
#define HYB_LEARN_CHOICES_PER_OP 64
#define HYB_LEARN_CHOICES_MAX    256

/* Run rule on key's record. A missing record is made (zeroed, PENDING) when create, else
   rule is not run. Returns 1 when rule ran, 0 when not. */
int hyb_learn_choice( hyb_learn_key_t key, int create, hyb_learn_rule_t rule, void* ctx );

/* A copy of key's record; 0 when there is none (*out untouched). */
int hyb_learn_choice_get( hyb_learn_key_t key, hyb_learn_choice_t* out );

/* Forget key's record, or every record of op. */
void hyb_learn_choice_forget( hyb_learn_key_t key );
void hyb_learn_choices_forget( hyb_op_id_t op );

#endif
