/* SPDX-License-Identifier: BSD-3-Clause */
/* The ZFP test fields, shared by the unit suites and the GPU check: shapes
   (2-D and 3-D, partial blocks at every edge), contents that reach every
   corner of the format (smooth, random, constant, zeros, wide exponents,
   subnormals, the scale limit, NaN and infinities, random bit patterns) and
   the rates each type is checked at, with deterministic values. */
#ifndef TEST_ZFP_CASES_H
#define TEST_ZFP_CASES_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/zfp/hyb_zfp_format.h"

#ifdef __cplusplus
extern "C"
{
#endif

	typedef enum
	{
		HYB_ZC_SMOOTH,    /* a quadratic polynomial: what a stencil field looks like */
		HYB_ZC_RANDOM,    /* uniform in [-1, 1) */
		HYB_ZC_CONSTANT,  /* one value everywhere */
		HYB_ZC_ZEROS,     /* all zero: empty blocks */
		HYB_ZC_SPARSE,    /* zeros in a pattern that empties some blocks, not all */
		HYB_ZC_EXPONENTS, /* random values times 2^e, e uniform in [-30, 30) */
		HYB_ZC_HUGE,      /* near the type's largest finite values */
		HYB_ZC_LIMIT,     /* largest magnitudes near 2^-97 (float) / 2^-961 (double),
		                     where libzfp's block scale overflows */
		HYB_ZC_PLANES,    /* double: below 2^-1016, where fewer bit planes are coded */
		HYB_ZC_SUBNORMAL, /* subnormal values only */
		HYB_ZC_NAN,       /* random values, one in seven a NaN */
		HYB_ZC_INF,       /* random values, one in nine an infinity of either sign */
		HYB_ZC_BITS,      /* random bit patterns: any finite or non-finite value */
		HYB_ZC_KINDS
	} hyb_zc_kind_t;

	/* One test field: contiguous, x fastest. */
	typedef struct
	{
		hyb_zfp_field_t f;
		hyb_zc_kind_t   kind;
	} hyb_zc_case_t;

	/* How many cases there are, and case i (every shape, kind and type). */
	size_t        hyb_zc_count( void );
	hyb_zc_case_t hyb_zc_get( size_t i );

	/* The case's values: f.nx * f.ny * f.nz of them, of the case's type, into
	   `values`; the same bits on every machine. */
	void hyb_zc_fill( const hyb_zc_case_t* c, void* values );

	/* Values of the case's field. */
	size_t hyb_zc_values( const hyb_zc_case_t* c );

	/* The rates a type is checked at (every integer rate up to its precision and
	   a few fractional ones, one below the smallest block), and the few of them
	   the recorded hashes use. */
	const double* hyb_zc_rates( hyb_zfp_type_t type, size_t* n );
	const double* hyb_zc_golden_rates( hyb_zfp_type_t type, size_t* n );

	/* Name of a kind ("smooth", ...). */
	const char* hyb_zc_kind_name( hyb_zc_kind_t kind );

/* FNV-1a over bytes, continuing from h (start with HYB_ZC_HASH0). */
#define HYB_ZC_HASH0 0xcbf29ce484222325ull
	uint64_t hyb_zc_hash( uint64_t h, const void* bytes, size_t n );

	/* A codec's encode and decode, as the host codec and the CPU codec over
	   libzfp declare them. */
	typedef hyb_status_t ( *hyb_zc_encode_fn )( const hyb_zfp_field_t* f, double rate,
	                                            const void* field, void* stream,
	                                            size_t stream_bytes );
	typedef hyb_status_t ( *hyb_zc_decode_fn )( const hyb_zfp_field_t* f, double rate,
	                                            const void* stream, size_t stream_bytes,
	                                            void* field );

	/* The recorded hash of a codec's work on every case of one type, dims and
	   kind at the golden rates: the streams and the decoded values, in case and
	   rate order. 0 when a call fails or memory runs out. */
	uint64_t hyb_zc_golden( hyb_zfp_type_t type, unsigned dims, hyb_zc_kind_t kind,
	                        hyb_zc_encode_fn enc, hyb_zc_decode_fn dec );

	/* The hash hyb_zc_golden gave for libzfp 1.0.0 (Debian 12's libzfp1
	   1.0.0-7, x86-64), recorded so that a build without libzfp still checks
	   the codec against it. */
	uint64_t hyb_zc_golden_recorded( hyb_zfp_type_t type, unsigned dims, hyb_zc_kind_t kind );

	/* How many (type, dims, kind) of a codec differ from the recorded hashes;
	   prints the entries that differ, as they would be recorded. */
	size_t hyb_zc_golden_check( hyb_zc_encode_fn enc, hyb_zc_decode_fn dec );

#ifdef __cplusplus
}
#endif

#endif
