/* SPDX-License-Identifier: BSD-3-Clause */
/* A compressed array filled from the caller's values and written back to
   them through the device's codec (hyb_stencil_zfill.h), not the host's:
   at the damped wave's 45000^2 float the ends are 8 GB of values each way,
   which a host codec of a few GB/s takes several times the pipeline's own
   time to code, while the link moves them in a fraction of a second and
   the device codes at hundreds of GB/s (docs/stencil.md, "The two ends"). */
#include "dispatch/stencil/hyb_stencil_zfill.h"

#include <stdint.h>
#include <string.h>

#include "kernels/zfp/hyb_zfp_stage.h"

/* Two pieces in flight, each on a stream of its own. */
#define HYB_SZF_LANES 2

static const int hyb_szf_stream[HYB_SZF_LANES] = { HYB_STREAM_H2D, HYB_STREAM_D2H };

typedef struct
{
	hyb_dev_t* dev;
	void*      values[HYB_SZF_LANES]; /* a piece of values on the device */
	void*      stream[HYB_SZF_LANES]; /* its compressed bytes on the device */
	size_t     values_bytes, stream_bytes;
	int64_t    planes;     /* of a piece: whole bands */
	size_t     plane_size; /* bytes of a plane of values */
} hyb_szf_lanes_t;

static void hyb_szf_close( hyb_szf_lanes_t* l )
{
	for ( int i = 0; i < HYB_SZF_LANES; i++ )
	{
		if ( l->values[i] ) hyb_dev_free( l->dev, l->values[i], l->values_bytes );
		if ( l->stream[i] ) hyb_dev_free( l->dev, l->stream[i], l->stream_bytes );
		l->values[i] = l->stream[i] = NULL;
	}
}

/* The pieces' size and their device buffers. */
static hyb_status_t hyb_szf_open( hyb_szf_lanes_t* l, hyb_dev_t* dev, const hyb_stencil_zarr_t* a,
                                  int64_t limit )
{
	const hyb_zfp_field_t* f = &a->f;
	memset( l, 0, sizeof *l );
	l->dev              = dev;
	l->plane_size       = hyb_zfp_type_size( f->type ) * (size_t)hyb_zfp_slab_offset( f, 1 );
	const size_t  band  = (size_t)HYB_STENCIL_ZFP_ALIGN * l->plane_size;
	const int64_t most  = band > 0 ? (int64_t)( HYB_STENCIL_ZFILL_PIECE_BYTES / band ) : 1;
	int64_t       bands = hyb_stencil_zarr_piece( a, limit ) / HYB_STENCIL_ZFP_ALIGN;
	if ( bands > most ) bands = most;
	if ( bands < 1 ) bands = 1;
	l->planes = bands * HYB_STENCIL_ZFP_ALIGN;
	if ( l->planes > hyb_zfp_slab_rows( f ) ) l->planes = hyb_zfp_slab_rows( f );
	const hyb_zfp_field_t piece = hyb_stencil_zarr_slab( a, 0, l->planes );
	l->values_bytes             = (size_t)l->planes * l->plane_size;
	l->stream_bytes             = hyb_zfp_stage_buffer_bytes( &piece, a->rate );
	hyb_status_t st             = HYB_OK;
	for ( int i = 0; i < HYB_SZF_LANES && st == HYB_OK; i++ )
	{
		st = hyb_dev_alloc( dev, l->values_bytes, &l->values[i] );
		if ( st == HYB_OK ) st = hyb_dev_alloc( dev, l->stream_bytes, &l->stream[i] );
	}
	if ( st != HYB_OK ) hyb_szf_close( l );
	return st;
}

/* Every lane's queued work done; the first failure, or `st`. */
static hyb_status_t hyb_szf_drain( hyb_szf_lanes_t* l, hyb_status_t st )
{
	for ( int i = 0; i < HYB_SZF_LANES; i++ )
	{
		const hyb_status_t qs = hyb_dev_stream_sync( l->dev, hyb_szf_stream[i] );
		if ( st == HYB_OK ) st = qs;
	}
	return st;
}

/* Queue one piece, planes [lo, hi), on lane i: values up, encode, bytes
   down (put); or bytes up, decode, values down (get). */
static hyb_status_t hyb_szf_piece( hyb_szf_lanes_t* l, int i, const hyb_stencil_zarr_t* a,
                                   char* values, int64_t lo, int64_t hi, int get,
                                   hyb_stencil_zfill_bytes_t* moved )
{
	const hyb_zfp_field_t f  = hyb_stencil_zarr_slab( a, lo, hi );
	unsigned char*        h  = a->data + hyb_stencil_zarr_offset( a, lo );
	char*                 v  = values + (size_t)lo * l->plane_size;
	const size_t          vb = (size_t)( hi - lo ) * l->plane_size;
	const double          zb = (double)hyb_stencil_zarr_bytes( a, lo, hi );
	const int             s  = hyb_szf_stream[i];
	hyb_status_t          st = HYB_OK;
	moved->h2d_raw += (double)vb;
	moved->d2h_raw += (double)vb;
	if ( get )
	{
		moved->h2d += zb;
		moved->d2h += (double)vb;
		st = hyb_zfp_stage_up( l->dev, s, &f, a->rate, h, l->stream[i], l->values[i], NULL, NULL );
		if ( st == HYB_OK ) st = hyb_dev_d2h( l->dev, s, v, vb, l->values[i], vb, vb, 1 );
	}
	else
	{
		moved->h2d += (double)vb;
		moved->d2h += zb;
		st = hyb_dev_h2d( l->dev, s, l->values[i], vb, v, vb, vb, 1 );
		if ( st == HYB_OK )
			st = hyb_zfp_stage_down( l->dev, s, &f, a->rate, l->values[i], l->stream[i], h, NULL,
			                         NULL );
	}
	return st;
}

static hyb_status_t hyb_szf_run( hyb_dev_t* dev, const hyb_stencil_zarr_t* a, char* values,
                                 int64_t limit, int get, hyb_stencil_zfill_bytes_t* moved )
{
	hyb_szf_lanes_t l;
	hyb_status_t    st = hyb_szf_open( &l, dev, a, limit );
	if ( st != HYB_OK ) return st;
	const int64_t rows = hyb_zfp_slab_rows( &a->f );
	int           i    = 0;
	/* Stream order keeps a lane's piece done before its next one reuses
	   the lane's buffers. */
	for ( int64_t lo = 0; lo < rows && st == HYB_OK; lo += l.planes, i ^= 1 )
	{
		const int64_t hi = rows - lo < l.planes ? rows : lo + l.planes;
		st               = hyb_szf_piece( &l, i, a, values, lo, hi, get, moved );
	}
	st = hyb_szf_drain( &l, st );
	hyb_szf_close( &l );
	return st;
}

hyb_status_t hyb_stencil_zfill_put( hyb_dev_t* dev, hyb_stencil_zarr_t* a, const void* values,
                                    int64_t limit, hyb_stencil_zfill_bytes_t* moved )
{
	/* Only device copies read `values`: the cast lets put and get share
	   the loop. */
	const hyb_status_t st = hyb_szf_run( dev, a, (char*)(uintptr_t)values, limit, 0, moved );
	/* No device memory for two pieces: the host codec, the same bits. */
	return st == HYB_E_NO_MEMORY ? hyb_stencil_zarr_put( a, values ) : st;
}

hyb_status_t hyb_stencil_zfill_get( hyb_dev_t* dev, const hyb_stencil_zarr_t* a, void* values,
                                    int64_t limit, hyb_stencil_zfill_bytes_t* moved )
{
	if ( hyb_szf_run( dev, a, values, limit, 1, moved ) == HYB_OK ) return HYB_OK;
	return hyb_stencil_zarr_get( a, values );
}
