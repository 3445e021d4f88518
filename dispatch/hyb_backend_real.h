/* SPDX-License-Identifier: BSD-3-Clause */
/* The "real" backend: pointers to the real library's symbols, resolved
   lazily through a resolver that the shim installs. */
#ifndef HYB_BACKEND_REAL_H
#define HYB_BACKEND_REAL_H

#include "hyb_args.h"

/* Returns the real library's address for routine `id`, or NULL. Installed
   once by the shim before any call can reach the real backend. */
typedef void* ( *hyb_real_resolver_fn )( hyb_routine_id_t id );

/* Install the resolver (idempotent; thread-safe). */
void hyb_real_set_resolver( hyb_real_resolver_fn fn );

/* Address of the real symbol of routine `id`, resolving it on first use and
   again later while it is missing (a library may be loaded after us).
   Returns NULL when no library provides it. Thread-safe, lock-free when
   resolved. */
void* hyb_real_get( hyb_routine_id_t id );

/* Resolves a symbol that is not a routine of the table (the error
   handler xerbla) by name, never inside libhyblas; NULL if none. */
typedef void* ( *hyb_real_name_resolver_fn )( const char* name );

/* Install the name resolver (idempotent; thread-safe). */
void hyb_real_set_name_resolver( hyb_real_name_resolver_fn fn );

/* Report invalid argument number `info` (the reference's numbering, > 0)
   of routine `id` as the reference library of its name would: through the
   process's XERBLA with the reference's routine name ("DGEMM "). For an
   ILP64 name the ILP64 handler xerbla_64_ (64-bit INFO) is preferred,
   otherwise, and when the process has no xerbla_64_, xerbla_ (32-bit INFO),
   which is what a CBLAS name reaches in OpenBLAS too. With no handler in
   the process, one error line in the reference's words. May not return
   when the handler stops the program, as the reference's does. */
void hyb_real_xerbla( hyb_routine_id_t id, int info );

/* Report (once per routine) that a call could not reach any real library
   and had no effect. */
void hyb_real_missing( hyb_routine_id_t id );

/* Forget every resolved pointer (tests; after fork nothing changes). */
void hyb_real_reset( void );

/* Find a real routine computing (op, prec), preferring the flavor of routine
   `like` (the same library family as the caller), then any other flavor.
   Returns the routine id or -1. */
hyb_routine_id_t hyb_real_worker( hyb_routine_id_t like, hyb_op_t op, hyb_prec_t prec );

#endif
