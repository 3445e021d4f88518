/* SPDX-License-Identifier: BSD-3-Clause */
/* Compressed fields of a stencil problem (issue 22): which fields carry a
   fixed-rate ZFP rate and whether the codec takes them, a field kept as one
   ZFP stream whose bands of 4 planes begin on a byte (so that every range of
   whole bands is an independently decodable piece of it: the chunks'
   remainders and common regions), the lossy round trip the CPU path applies,
   and the sampled comparison of the fidelity check. */
#ifndef HYB_STENCIL_ZFP_H
#define HYB_STENCIL_ZFP_H

#include <stddef.h>
#include <stdint.h>

#include "hyb_status.h"
#include "kernels/stencil/hyb_stencil_prob.h"
#include "kernels/zfp/hyb_zfp_format.h"

/* Planes of one ZFP block along the cut axis: chunk bounds and halos of a
   compressed run are multiples of it. */
#define HYB_STENCIL_ZFP_ALIGN 4

/* Compressed bytes one stage call moves at most (a range is moved in
   pieces of whole bands): large enough that a copy runs at the link's
   rate, small enough that the device's stream buffers stay a small part
   of the budget. */
#define HYB_STENCIL_ZFP_PIECE_BYTES ( (size_t)32 << 20 )

/* Piece buffers an upload's copy stream cycles through: a piece's copy
   waits for the decode that read its buffer this many pieces earlier. The
   decodes share the device with the stencil's kernels and start when
   those leave room; with two buffers the copies waited for each such
   start (the H200's compressed uploads moved 25 GB/s against 43 raw). */
#define HYB_STENCIL_ZFP_RING 8

/* One array of `p` as the codec sees it: 2-D problems as nx x (rows),
   3-D as nx x ny x nz, contiguous. */
hyb_zfp_field_t hyb_stencil_zfp_field( const hyb_stencil_prob_t* p );

/* The rate of quantity q's time levels (0: they move uncompressed): the
   rate of its first input role (PREV, P, U; the wave's P or Q). */
double hyb_stencil_state_rate( const hyb_stencil_prob_t* p, int q );

/* 1 when any field of `p` has a rate. */
int hyb_stencil_compressed( const hyb_stencil_prob_t* p );

/* 1 when a compressed run of `p` fuses its ends into its blocks: the
   first block reads the caller's values and encodes its result, the last
   decodes its input and writes values, so that the caller's values cross
   once each way as values and a run of B blocks makes B - 1 round trips.
   Kinds with one input level per quantity (all but the acoustic, whose
   older level goes through a staging array); the acoustic encodes its
   inputs before the first block and decodes its result after the last.
   0 without compression. */
int hyb_stencil_zfp_fused( const hyb_stencil_prob_t* p );

/* Whether the rates of `p` can run: every rate 0 or one the codec takes for
   the element type ((0, 32] float, (0, 64] double); each quantity's input
   roles one rate, its work role (NEXT, WORK, WRK2) that rate or 0; and a
   band of 4 planes a whole number of bytes at every rate (every integer
   rate is). HYB_OK or HYB_E_INVALID. Pure. */
hyb_status_t hyb_stencil_zfp_check( const hyb_stencil_prob_t* p );

/* A field of `p` compressed at `rate` as one stream, in host memory. */
typedef struct
{
	hyb_zfp_field_t f;
	double          rate;
	size_t          band_bytes; /* bytes of 4 planes */
	size_t          bytes;      /* of the whole stream */
	unsigned char*  data;
	int             owned; /* data allocated by hyb_stencil_zarr_init */
} hyb_stencil_zarr_t;

/* Allocate (nothing coded yet). HYB_E_INVALID, HYB_E_NO_MEMORY (z zeroed).
   With `at` non-NULL the stream lives there instead (at least
   hyb_stencil_zarr_room bytes, 8-byte aligned, the caller's to free). */
hyb_status_t hyb_stencil_zarr_init( hyb_stencil_zarr_t* z, const hyb_stencil_prob_t* p, double rate,
                                    void* at );
void         hyb_stencil_zarr_free( hyb_stencil_zarr_t* z );

/* Bytes a stream of a field of `p` at `rate` occupies (the stream rounded
   up for the codec's whole words); 0 for a rate the codec refuses. */
size_t hyb_stencil_zarr_room( const hyb_stencil_prob_t* p, double rate );

/* Planes [z0, z1) (z0 a multiple of 4; z1 too, or the field's end) as a
   slab field, where its stream begins in the whole stream, and its bytes. */
hyb_zfp_field_t hyb_stencil_zarr_slab( const hyb_stencil_zarr_t* z, int64_t z0, int64_t z1 );
size_t          hyb_stencil_zarr_offset( const hyb_stencil_zarr_t* z, int64_t z0 );
size_t          hyb_stencil_zarr_bytes( const hyb_stencil_zarr_t* z, int64_t z0, int64_t z1 );

/* Planes of one piece of a range of z: whole bands, at most `limit`
   compressed bytes (0: HYB_STENCIL_ZFP_PIECE_BYTES; one band when a band
   is larger). */
int64_t hyb_stencil_zarr_piece( const hyb_stencil_zarr_t* z, int64_t limit );

/* The whole field encoded from / decoded into host values by the host
   codec (bit for bit libzfp's stream). */
hyb_status_t hyb_stencil_zarr_put( hyb_stencil_zarr_t* z, const void* values );
hyb_status_t hyb_stencil_zarr_get( const hyb_stencil_zarr_t* z, void* values );

/* values = decode(encode(values)) for a field of `p` at `rate`, with libzfp
   when it opens, else the host codec (the same bits). Returns HYB_OK,
   HYB_E_NO_MEMORY (values untouched) or HYB_E_INVALID. */
hyb_status_t hyb_stencil_zfp_round_trip( const hyb_stencil_prob_t* p, double rate, void* values );

/* Called after each checkpoint of a lossy run with the newest level as the
   run would leave it (decoded) at step t of the call. */
typedef void ( *hyb_stencil_check_fn )( void* ctx, int64_t t, const void* newest );

/* The CPU path with the round trips of a compressed run: the inputs round
   tripped at the start, then per temporal block of k steps (blocks restart
   at every multiple of `every` steps when every > 0) the steps and a round
   trip of the levels the next block reads (with fused ends,
   hyb_stencil_zfp_fused, neither the first round trip nor the one after
   the last block); the compressed read-only fields
   are round tripped once into copies (the caller's stay untouched). After
   each multiple of `every` and at the end, cb(ctx, t, newest) when cb is
   given. Equal bit for bit to the device pipeline of the same k and
   checkpoints. Without rates it is hyb_stencil_cpu_run. Returns as
   hyb_stencil_cpu_run. */
hyb_status_t hyb_stencil_cpu_run_lossy( const hyb_stencil_prob_t* p, int64_t steps, int32_t k,
                                        int64_t every, int nthreads, double* residual,
                                        hyb_stencil_check_fn cb, void* ctx );

/* The values of `field` (a field of `p`) at about `points` points spread
   over every row (x line): as many rows as the points allow, the points of
   a row evenly spaced, as doubles into out (NULL: only counted). Returns
   how many. Pure. */
int64_t hyb_stencil_sample( const hyb_stencil_prob_t* p, const void* field, int64_t points,
                            double* out );

/* Errors of samples got[0 .. n) against ref[0 .. n): absolute |a - b|,
   relative |a - b| / |b| over the points where b != 0; a non-finite
   difference counts as infinite. */
typedef struct
{
	int64_t points, rel_points;
	double  max_abs, sum_abs, max_rel, sum_rel;
} hyb_stencil_err_t;
void hyb_stencil_sample_error( const double* got, const double* ref, int64_t n,
                               hyb_stencil_err_t* out );

#endif
