/* SPDX-License-Identifier: BSD-3-Clause */
/* The simulated device's ZFP launchers: the host codec on the simulated
   device's memory (host memory), in the order the stream plays them. */
#include "kernels/zfp/hyb_zfp_host.h"
#include "kernels/zfp/hyb_zfp_kargs.h"

static hyb_status_t hyb_zfp_encode_check( const void* args )
{
	const hyb_zfp_encode_args_t* a = (const hyb_zfp_encode_args_t*)args;
	return a ? hyb_zfp_check_call( &a->f, a->rate, a->field, a->stream ) : HYB_E_INVALID;
}

static hyb_status_t hyb_zfp_decode_check( const void* args )
{
	const hyb_zfp_decode_args_t* a = (const hyb_zfp_decode_args_t*)args;
	return a ? hyb_zfp_check_call( &a->f, a->rate, a->field, a->stream ) : HYB_E_INVALID;
}

/* The launchers are callable on their own and refuse what the registered
   checks refuse, so they run those checks first. */
hyb_status_t hyb_zfp_encode_sim( const hyb_kernel_env_t* env, const void* args )
{
	(void)env;
	const hyb_zfp_encode_args_t* a  = (const hyb_zfp_encode_args_t*)args;
	const hyb_status_t           st = hyb_zfp_encode_check( args );
	return st != HYB_OK ? st
	                    : hyb_zfp_host_encode( &a->f, a->rate, a->field, a->stream,
	                                           hyb_zfp_stream_bytes( &a->f, a->rate ) );
}

hyb_status_t hyb_zfp_decode_sim( const hyb_kernel_env_t* env, const void* args )
{
	(void)env;
	const hyb_zfp_decode_args_t* a  = (const hyb_zfp_decode_args_t*)args;
	const hyb_status_t           st = hyb_zfp_decode_check( args );
	return st != HYB_OK ? st
	                    : hyb_zfp_host_decode( &a->f, a->rate, a->stream,
	                                           hyb_zfp_stream_bytes( &a->f, a->rate ), a->field );
}

/* Memory-bound: the field's values once and the stream once (the block
   arithmetic hides behind the memory traffic on a device). */
static double hyb_zfp_traffic( const hyb_zfp_field_t* f, double rate )
{
	const double values = (double)f->nx * (double)f->ny * (double)( f->dims == 3 ? f->nz : 1 );
	return values * (double)hyb_zfp_type_size( f->type ) + (double)hyb_zfp_stream_bytes( f, rate );
}

static void hyb_zfp_encode_work( const void* args, double* flops, double* bytes )
{
	const hyb_zfp_encode_args_t* a = (const hyb_zfp_encode_args_t*)args;
	*flops                         = 0;
	*bytes                         = hyb_zfp_traffic( &a->f, a->rate );
}

static void hyb_zfp_decode_work( const void* args, double* flops, double* bytes )
{
	const hyb_zfp_decode_args_t* a = (const hyb_zfp_decode_args_t*)args;
	*flops                         = 0;
	*bytes                         = hyb_zfp_traffic( &a->f, a->rate );
}

HYB_KERNEL_DEFINE( hyb_zfp_encode_def, "zfp.encode", NULL, hyb_zfp_encode_args_t,
                   hyb_zfp_encode_check, hyb_zfp_encode_sim, hyb_zfp_encode_work );
HYB_KERNEL_DEFINE( hyb_zfp_decode_def, "zfp.decode", NULL, hyb_zfp_decode_args_t,
                   hyb_zfp_decode_check, hyb_zfp_decode_sim, hyb_zfp_decode_work );
