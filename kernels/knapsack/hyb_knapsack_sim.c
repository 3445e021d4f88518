/* SPDX-License-Identifier: BSD-3-Clause */
/* The knapsack kernels on the simulated device: the same per-node
   arithmetic as the CUDA kernels (hyb_knapsack_node.h), as plain loops on
   host memory, computed at once in launch order; and the kernels'
   registered declarations. */
#include "kernels/knapsack/hyb_knapsack_kargs.h"

/* The simulated reduce and scan need scratch as the CUDA ones do (CUB's
   size query), so a caller that forgets it fails here, on every machine,
   rather than only on a GPU. */
#define HYB_KNAPSACK_SIM_SCRATCH 256u

static int hyb_knapsack_sim_scratch_ok( int64_t m, const void* temp, size_t bytes )
{
	return m < 1 || ( temp != NULL && bytes >= HYB_KNAPSACK_SIM_SCRATCH );
}

hyb_status_t hyb_knapsack_branch_sim( const hyb_kernel_env_t* env, const void* args )
{
	(void)env;
	const hyb_knapsack_branch_args_t* a = args;
	for ( int64_t i = 0; i < a->n_parents; i++ )
		hyb_knapsack_branch( &a->items, &a->parents[i], &a->children[2 * i],
		                     &a->children[2 * i + 1] );
	return HYB_OK;
}

hyb_status_t hyb_knapsack_bound_sim( const hyb_kernel_env_t* env, const void* args )
{
	(void)env;
	const hyb_knapsack_bound_args_t* a = args;
	for ( int64_t i = 0; i < a->m; i++ )
		hyb_knapsack_bound( &a->items, &a->nodes[i], &a->u[i], &a->l[i] );
	return HYB_OK;
}

hyb_status_t hyb_knapsack_reduce_max_sim( const hyb_kernel_env_t* env, const void* args )
{
	(void)env;
	const hyb_knapsack_reduce_args_t* a = args;
	if ( a->m < 1 || !hyb_knapsack_sim_scratch_ok( a->m, a->temp, a->temp_bytes ) )
		return HYB_E_INVALID;
	int64_t best = a->l[0];
	for ( int64_t i = 1; i < a->m; i++ )
		if ( a->l[i] > best ) best = a->l[i];
	*a->out = best;
	return HYB_OK;
}

hyb_status_t hyb_knapsack_label_sim( const hyb_kernel_env_t* env, const void* args )
{
	(void)env;
	const hyb_knapsack_label_args_t* a     = args;
	const int64_t                    lstar = *a->iter_max > a->lstar ? *a->iter_max : a->lstar;
	for ( int64_t i = 0; i < a->m; i++ )
	{
		int lab = hyb_knapsack_label( &a->nodes[i], a->u[i], lstar, a->ties, a->n_items );
		if ( a->key )
			a->key[i] = lab == HYB_KNAPSACK_KEEP        ? 1
			            : lab == HYB_KNAPSACK_KEEP_DONE ? HYB_KNAPSACK_KEY_DONE
			                                            : 0;
		if ( a->label ) a->label[i] = lab;
	}
	return HYB_OK;
}

hyb_status_t hyb_knapsack_compact_sim( const hyb_kernel_env_t* env, const void* args )
{
	(void)env;
	const hyb_knapsack_compact_args_t* a = args;
	if ( a->m < 1 ) return HYB_E_INVALID;
	if ( a->temp_query ) return hyb_knapsack_sim_temp_bytes( a->m, a->temp_query );
	if ( !hyb_knapsack_sim_scratch_ok( a->m, a->temp, a->temp_bytes ) ) return HYB_E_INVALID;
	int64_t run = 0;
	for ( int64_t i = 0; i < a->m; i++ )
	{
		run += a->key[i];
		a->pos[i] = run;
	}
	const int64_t unfinished = run & HYB_KNAPSACK_KEY_LOW_MASK;
	for ( int64_t i = 0; i < a->m; i++ )
	{
		if ( a->key[i] == 0 ) continue;
		const int64_t d = a->key[i] == 1 ? ( a->pos[i] & HYB_KNAPSACK_KEY_LOW_MASK ) - 1
		                                 : unfinished + ( a->pos[i] >> 32 ) - 1;
		a->out[d]       = a->in[i];
	}
	a->scalars->n_unfinished = unfinished;
	a->scalars->n_finished   = run >> 32;
	return HYB_OK;
}

hyb_status_t hyb_knapsack_gather_sim( const hyb_kernel_env_t* env, const void* args )
{
	(void)env;
	const hyb_knapsack_gather_args_t* a = args;
	for ( int64_t i = 0; i < a->m; i++ )
		if ( a->dest[i] >= 0 ) a->out[a->dest[i]] = a->in[i];
	return HYB_OK;
}

hyb_status_t hyb_knapsack_dp_row_sim( const hyb_kernel_env_t* env, const void* args )
{
	(void)env;
	const hyb_knapsack_dp_row_args_t* a = args;
	if ( a->cap < 0 || a->w < 0 ) return HYB_E_INVALID;
	hyb_knapsack_dp_words_range( a->prev, a->next, a->take, a->cap, a->w, a->p, 0,
	                             hyb_knapsack_dp_words( a->cap ) );
	return HYB_OK;
}

hyb_status_t hyb_knapsack_dp_walk_sim( const hyb_kernel_env_t* env, const void* args )
{
	(void)env;
	const hyb_knapsack_dp_walk_args_t* a = args;
	hyb_knapsack_dp_walk( a->w, a->n, a->cap, hyb_knapsack_dp_words( a->cap ), a->bits, a->x );
	return HYB_OK;
}

hyb_status_t hyb_knapsack_sim_temp_bytes( int64_t capacity, size_t* bytes )
{
	if ( capacity < 0 || !bytes ) return HYB_E_INVALID;
	*bytes = capacity > 0 ? HYB_KNAPSACK_SIM_SCRATCH : 0;
	return HYB_OK;
}

/* A launch's counts must be non-negative and its arrays present: checked on
   every backend before anything is queued. Most launches run over m
   elements and need their arrays (`arrays`: all present) only when m > 0. */
static hyb_status_t hyb_knapsack_span_check( int64_t m, int arrays )
{
	return m >= 0 && ( m == 0 || arrays ) ? HYB_OK : HYB_E_INVALID;
}

static hyb_status_t hyb_knapsack_branch_check( const void* args )
{
	const hyb_knapsack_branch_args_t* a = args;
	return hyb_knapsack_span_check( a->n_parents, a->parents && a->children );
}

static hyb_status_t hyb_knapsack_bound_check( const void* args )
{
	const hyb_knapsack_bound_args_t* a = args;
	return hyb_knapsack_span_check( a->m, a->nodes && a->u && a->l );
}

static hyb_status_t hyb_knapsack_reduce_check( const void* args )
{
	const hyb_knapsack_reduce_args_t* a = args;
	return a->m >= 1 && a->l && a->out ? HYB_OK : HYB_E_INVALID;
}

static hyb_status_t hyb_knapsack_label_check( const void* args )
{
	const hyb_knapsack_label_args_t* a = args;
	if ( !a->iter_max ) return HYB_E_INVALID;
	return hyb_knapsack_span_check( a->m, a->nodes && a->u && ( a->key || a->label ) );
}

static hyb_status_t hyb_knapsack_compact_check( const void* args )
{
	const hyb_knapsack_compact_args_t* a = args;
	if ( a->m < 1 || a->m >= INT32_MAX ) return HYB_E_INVALID;
	return a->temp_query || ( a->in && a->key && a->pos && a->out && a->scalars ) ? HYB_OK
	                                                                              : HYB_E_INVALID;
}

static hyb_status_t hyb_knapsack_gather_check( const void* args )
{
	const hyb_knapsack_gather_args_t* a = args;
	return hyb_knapsack_span_check( a->m, a->in && a->dest && a->out );
}

static hyb_status_t hyb_knapsack_dp_row_check( const void* args )
{
	const hyb_knapsack_dp_row_args_t* a = args;
	return a->cap >= 0 && a->w >= 0 && a->next ? HYB_OK : HYB_E_INVALID;
}

static hyb_status_t hyb_knapsack_dp_walk_check( const void* args )
{
	const hyb_knapsack_dp_walk_args_t* a = args;
	return hyb_knapsack_span_check( a->n, a->cap >= 0 && a->bits && a->w && a->x );
}

/* Kernel "knapsack.<name>", launched by hyb_knapsack_<name>_sim, with the
   argument block and the check of `kind` (the max-reduce's are the
   reduce's). The family's kernels take no alias and cost the simulated
   device only its latency. */
#define HYB_KNAPSACK_DEF( name, kind )                                                             \
	static HYB_KERNEL_DEFINE( hyb_knapsack_##name##_kernel, "knapsack." #name, NULL,               \
	                          hyb_knapsack_##kind##_args_t, hyb_knapsack_##kind##_check,           \
	                          hyb_knapsack_##name##_sim, NULL )

HYB_KNAPSACK_DEF( branch, branch );
HYB_KNAPSACK_DEF( bound, bound );
HYB_KNAPSACK_DEF( reduce_max, reduce );
HYB_KNAPSACK_DEF( label, label );
HYB_KNAPSACK_DEF( compact, compact );
HYB_KNAPSACK_DEF( gather, gather );
HYB_KNAPSACK_DEF( dp_row, dp_row );
HYB_KNAPSACK_DEF( dp_walk, dp_walk );

const hyb_kernel_def_t* const hyb_knapsack_kernel_defs[HYB_KNAPSACK_K_COUNT] = {
	[HYB_KNAPSACK_K_BRANCH]     = &hyb_knapsack_branch_kernel,
	[HYB_KNAPSACK_K_BOUND]      = &hyb_knapsack_bound_kernel,
	[HYB_KNAPSACK_K_REDUCE_MAX] = &hyb_knapsack_reduce_max_kernel,
	[HYB_KNAPSACK_K_LABEL]      = &hyb_knapsack_label_kernel,
	[HYB_KNAPSACK_K_COMPACT]    = &hyb_knapsack_compact_kernel,
	[HYB_KNAPSACK_K_GATHER]     = &hyb_knapsack_gather_kernel,
	[HYB_KNAPSACK_K_DP_ROW]     = &hyb_knapsack_dp_row_kernel,
	[HYB_KNAPSACK_K_DP_WALK]    = &hyb_knapsack_dp_walk_kernel,
};
