/* SPDX-License-Identifier: BSD-3-Clause */
/* The simulated device's ZFP launchers: the host codec on the simulated
   device's memory (host memory), in the order the stream plays them. */
#include "kernels/zfp/hyb_zfp_host.h"
#include "kernels/zfp/hyb_zfp_kargs.h"

hyb_status_t hyb_zfp_encode_sim(const hyb_kernel_env_t* env, const void* args)
{
	(void)env;
	const hyb_zfp_encode_args_t* a = (const hyb_zfp_encode_args_t*)args;
	if (!a) return HYB_E_INVALID;
	hyb_status_t st = hyb_zfp_check_call(&a->f, a->rate, a->field, a->stream);
	if (st != HYB_OK) return st;
	return hyb_zfp_host_encode(&a->f, a->rate, a->field, a->stream,
	                           hyb_zfp_stream_bytes(&a->f, a->rate));
}

hyb_status_t hyb_zfp_decode_sim(const hyb_kernel_env_t* env, const void* args)
{
	(void)env;
	const hyb_zfp_decode_args_t* a = (const hyb_zfp_decode_args_t*)args;
	if (!a) return HYB_E_INVALID;
	hyb_status_t st = hyb_zfp_check_call(&a->f, a->rate, a->field, a->stream);
	if (st != HYB_OK) return st;
	return hyb_zfp_host_decode(&a->f, a->rate, a->stream, hyb_zfp_stream_bytes(&a->f, a->rate),
	                           a->field);
}
