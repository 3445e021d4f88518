/* SPDX-License-Identifier: BSD-3-Clause */
/* The operation registry: every workload the statistics count and report (an
   intercepted routine, an extension operation such as "stencil.run") has an id and a
   name. */
#ifndef HYB_OP_H
#define HYB_OP_H

typedef int hyb_op_id_t;

#define HYB_OP_NONE ( -1 )
/* Extension operations get ids from HYB_OP_EXT_BASE on, so that the intercepted
   routines keep theirs (0 .. routines - 1) whatever registers first. */
#define HYB_OP_EXT_BASE 65536
#define HYB_OP_EXT_MAX  256
#define HYB_OP_NAME_MAX 48

/* The id of operation `name` of `family` ("stencil.run", "stencil"), registering it on
   its first call: idempotent (the same name gives the same id; the family of the first
   registration stays) and thread-safe. A name is 1 .. HYB_OP_NAME_MAX - 1 characters of
   letters, digits, '_', '.' and '-'; the name of an intercepted routine returns that
   routine's id. HYB_OP_NONE for a bad name or when HYB_OP_EXT_MAX operations are
   registered. Resolve once and keep the id: this takes a lock and compares strings. */
hyb_op_id_t hyb_op_register( const char* name, const char* family );

/* 1 when name is a valid operation name (as hyb_op_register says), else 0. Pure. */
int hyb_op_name_ok( const char* name );

/* The id of a registered operation or intercepted routine; HYB_OP_NONE if none. */
hyb_op_id_t hyb_op_find( const char* name );

/* Name and family of `id` (an intercepted routine: "routine"); NULL for an unknown id. */
const char* hyb_op_name_of( hyb_op_id_t id );
const char* hyb_op_family_of( hyb_op_id_t id );

/* Extension operations registered so far (their ids are HYB_OP_EXT_BASE + 0 .. n - 1). */
int hyb_op_ext_count( void );

/* The routines' names, ids 0 .. n - 1 (stage-1 init, through hyb_stats_init; the first
   call wins; names must outlive the process). */
void hyb_op_set_routines( int n, const char* const* names );
int  hyb_op_routine_count( void );

#endif
