/* SPDX-License-Identifier: BSD-3-Clause */
/* The table of registered device kernels (kernels/hyb_kernel.h): ids and names. */
#ifndef HYB_KERNEL_REGISTRY_H
#define HYB_KERNEL_REGISTRY_H

#include <stdatomic.h>

#include "kernels/hyb_kernel.h"

/* A registered kernel's index in the table: 0 .. hyb_kernel_count() - 1, fixed for the
   life of the process (the order in which the linker laid out the registrations). */
typedef int hyb_kernel_id_t;

#define HYB_KERNEL_NONE ( -1 )
/* Kernels one process can register; more are refused with a warning. */
#define HYB_KERNEL_MAX 256

/* Number of registered kernels. The table is built on the first call of any function
   here (thread-safe) from the registrations linked into this library; an entry with a
   malformed name, no argument size or a name already taken is left out and warned
   about once. */
int hyb_kernel_count( void );

/* The declaration of kernel `id`; NULL when id is out of range. */
const hyb_kernel_def_t* hyb_kernel_def( hyb_kernel_id_t id );

/* The id of the kernel named `name` (its name or its alias); HYB_KERNEL_NONE when no
   registered kernel has that name. A string search: callers resolve once and keep the
   id (hyb_kernel_id_cached). */
hyb_kernel_id_t hyb_kernel_find( const char* name );

/* The id of the registered declaration `def` (compared by address); HYB_KERNEL_NONE when
   `def` is not in the table. */
hyb_kernel_id_t hyb_kernel_id( const hyb_kernel_def_t* def );

/* hyb_kernel_id(def), resolved once and kept in *cache (a zero-initialized static of
   the caller: it holds id + 1), so that a launch costs one relaxed load. Naming `def`
   also makes the linker keep the family's registration, wherever the caller's object
   is linked from. */
static inline hyb_kernel_id_t hyb_kernel_id_cached( atomic_int* cache, const hyb_kernel_def_t* def )
{
	int v = atomic_load_explicit( cache, memory_order_relaxed );
	if ( v == 0 )
	{
		v = hyb_kernel_id( def ) + 1;
		atomic_store_explicit( cache, v, memory_order_relaxed );
	}
	return v - 1;
}

/* Whether `name` is a well-formed kernel name: "family.kernel", lower-case letters,
   digits and '_' on both sides of one '.', at most 63 characters. */
int hyb_kernel_name_valid( const char* name );

#endif
