/* SPDX-License-Identifier: BSD-3-Clause */
/* The shim's entry points: stage-1 init and the real-library resolver. */
#ifndef HYB_SHIM_H
#define HYB_SHIM_H

#include "hyb_args.h"
#include "hyblas_ext.h" /* the exported hyb_version and hyb_calls (shim/hyb_shim_ext.c) */

/* Stage-1 init, once per process (pthread_once): configuration, logging,
   statistics, the resolver, fork handlers, the exit report. Cheap after the
   first call; called by every generated wrapper. */
void hyb_shim_ensure_init( void );

/* Resolve the real library's symbol of routine `id` (HYBLAS_CPU_LIB, then
   the next library in the lookup order, then every loaded library including
   those loaded RTLD_LOCAL, then the default OpenBLAS), never returning an
   address inside libhyblas itself. NULL if none. The library holding a
   returned address is kept loaded for the rest of the process, so the
   address may be cached and called after the program dlcloses it.
   Thread-safe. */
void* hyb_shim_resolve( hyb_routine_id_t id );

/* Resolve a symbol outside the routine table (xerbla) by name: the global
   lookup order first (a program's own handler), then HYBLAS_CPU_LIB and
   every loaded library; never an address inside libhyblas. NULL if none.
   Thread-safe. */
void* hyb_shim_resolve_name( const char* name );

/* Install the fork protocol of core/hyb_state.h (from stage-1 init): every
   lock of the library taken before fork() and made new in the child, the
   child's hooks run (a child of a process that used a device runs on the
   CPU). */
void hyb_shim_fork_register( void );

#endif
