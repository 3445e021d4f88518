/* SPDX-License-Identifier: BSD-3-Clause */
/* The fuzzers' reader of their input: byte by byte, zeros past its end, so that every
   input, however short, decodes to a whole case. */
#ifndef HYB_FUZZ_INPUT_H
#define HYB_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

typedef struct
{
	const uint8_t* p;
	size_t         n, at;
} fz_in_t;

/* The harness's entry point (libFuzzer's name). */
int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size );

static inline unsigned fz_byte( fz_in_t* in )
{
	return in->at < in->n ? in->p[in->at++] : 0u;
}

#endif
