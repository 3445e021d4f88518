/* SPDX-License-Identifier: BSD-3-Clause */
/* The CPU codec of a build without libzfp: present, and saying so. */
#include "kernels/zfp/hyb_zfp_cpu.h"

int hyb_zfp_cpu_available( void )
{
	return 0;
}

const char* hyb_zfp_cpu_version( void )
{
	return "";
}

hyb_status_t hyb_zfp_cpu_encode( const hyb_zfp_field_t* f, double rate, const void* field,
                                 void* stream, size_t stream_bytes )
{
	(void)f, (void)rate, (void)field, (void)stream, (void)stream_bytes;
	return HYB_E_NOT_SUPPORTED;
}

hyb_status_t hyb_zfp_cpu_decode( const hyb_zfp_field_t* f, double rate, const void* stream,
                                 size_t stream_bytes, void* field )
{
	(void)f, (void)rate, (void)stream, (void)stream_bytes, (void)field;
	return HYB_E_NOT_SUPPORTED;
}
