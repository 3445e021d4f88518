/* SPDX-License-Identifier: BSD-3-Clause */
/* Sparse matrix-vector dispatch (MKL symbols): MKL's routine when the
   process brought MKL, else hyblas's CPU kernel. */
#include "dispatch/hyb_dispatch.h"

#include "hyb_log.h"
#include "hyb_routines.h"
#include "hyb_stats.h"
#include "kernels/cpu/hyb_spmv_cpu.h"
#include "kernels/real/hyb_backend_real.h"

/* The CPU product on hyblas's own kernel. MKL documents no error report
   for these legacy routines: invalid arguments leave y untouched and are
   reported once per routine. */
static void hyb_spmv_cpu( const hyb_call_t* call, const hyb_spmv_args_t* a )
{
	hyb_status_t st;
	int          csr = a->op == HYB_OP_CSRMV;
	if ( a->prec == HYB_PREC_D )
		st = csr ? hyb_dcsrmv_cpu_omp( a->transa, a->m, a->val, a->rowind, a->colind, a->base, a->x, a->y, 0 )
		         : hyb_dcoomv_cpu_omp( a->transa, a->m, a->val, a->rowind, a->colind, a->nnz, a->base, a->x,
		                               a->y, 0 );
	else
		st = csr ? hyb_scsrmv_cpu_omp( a->transa, a->m, a->val, a->rowind, a->colind, a->base, a->x, a->y, 0 )
		         : hyb_scoomv_cpu_omp( a->transa, a->m, a->val, a->rowind, a->colind, a->nnz, a->base, a->x,
		                               a->y, 0 );
	if ( st != HYB_OK )
		hyb_log_once( hyb_hash_str( hyb_routine_info[call->id].name, 0x73706d76 ), HYB_LOG_WARN,
		              "warning: %s: %s (m=%lld, transa='%c'); y not computed", hyb_routine_info[call->id].name,
		              hyb_status_string( st ), (long long)a->m, a->transa );
}

void hyb_dispatch_spmv( const hyb_call_t* call, const hyb_spmv_args_t* a )
{
	int    timing = hyb_stats_timing();
	double t0     = timing ? hyb_now() : 0;
	/* A program linked with MKL gets MKL's own semantics and checks. */
	if ( hyb_real_get( call->id ) )
		call->forward( call );
	else
		hyb_spmv_cpu( call, a );
	double flops = 2.0 * (double)( a->op == HYB_OP_COOMV ? a->nnz : 0 );
	hyb_stats_record( call->id, HYB_PATH_CPU, timing ? hyb_now() - t0 : -1, flops, 0 );
}
