/* SPDX-License-Identifier: BSD-3-Clause */
/* Argument blocks of the ZFP device kernels (encode, decode) and the
   launchers' declarations, for the CUDA and the simulated backend alike:
   device pointers, the field's shape and the rate; no CUDA types. */
#ifndef HYB_ZFP_KARGS_H
#define HYB_ZFP_KARGS_H

#include "kernels/hyb_kernel.h"
#include "kernels/zfp/hyb_zfp_format.h"

/* Encode: the field at `field` (device memory, its value (0,0,0); strides in
   f) to the fixed-rate stream at `stream` (device memory, 8-byte aligned,
   hyb_zfp_stream_bytes(&f, rate) bytes, all of which the kernel writes). A
   slab of a larger array is coded in place by pointing `field` at its first
   value and giving the parent's strides. */
typedef struct
{
	hyb_zfp_field_t f;
	double          rate;
	const void*     field;
	void*           stream;
} hyb_zfp_encode_args_t;

/* Decode: the stream at `stream` (device memory, 8-byte aligned,
   hyb_zfp_stream_bytes bytes) into the field at `field`; only the field's
   values are written. */
typedef struct
{
	hyb_zfp_field_t f;
	double          rate;
	const void*     stream;
	void*           field;
} hyb_zfp_decode_args_t;

#ifdef __cplusplus
extern "C"
{
#endif

	/* The launchers (hyb_kernel_fn): args is a hyb_zfp_encode_args_t or
	   hyb_zfp_decode_args_t. The CUDA ones queue one kernel on env->stream
	   (a cudaStream_t) and return at once; the sim ones compute on the calling
	   thread. Neither allocates nor synchronizes. An empty field queues
	   nothing. Returns HYB_OK, HYB_E_INVALID (see hyb_zfp_check_call; nothing
	   is queued) or, CUDA only, HYB_E_DEVICE when the launch fails. */
	hyb_status_t hyb_zfp_encode_cuda( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_zfp_decode_cuda( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_zfp_encode_sim( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_zfp_decode_sim( const hyb_kernel_env_t* env, const void* args );

	/* The kernels' registrations in the core ("zfp.encode", "zfp.decode":
	   the names fault plans and the kernel listings use); launch them with
	   hyb_dev_launch(d, stream, hyb_kernel_id_cached(&cache, &def), &args). */
	extern const hyb_kernel_def_t hyb_zfp_encode_def;
	extern const hyb_kernel_def_t hyb_zfp_decode_def;

#ifdef __cplusplus
}
#endif

#endif
