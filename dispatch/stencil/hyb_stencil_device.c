/* SPDX-License-Identifier: BSD-3-Clause */
/* The stencil device pipeline: executor operations on the device runtime
   (one workspace and one page-locked staging buffer carved per run; each
   step on its schedule stream, ordered after the steps of other streams it
   depends on by events; compressed fields through the ZFP stage), and the
   run with its rollback. */
#include "dispatch/stencil/hyb_stencil_device.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dispatch/stencil/hyb_stencil_hostq.h"
#include "dispatch/stencil/hyb_stencil_keep.h"
#include "dispatch/stencil/hyb_stencil_timeline.h"
#include "dispatch/stencil/hyb_stencil_zfill.h"
#include "core/config/hyb_config.h"
#include "hyb_copy.h"
#include "hyb_heap.h"
#include "hyb_team.h"
#include "hyb_types.h"
#include "kernels/hyb_device.h"
#include "kernels/stencil/hyb_stencil_exec.h"
#include "kernels/stencil/hyb_stencil_kernels.h"
#include "kernels/stencil/hyb_stencil_order.h"
#include "kernels/stencil/hyb_stencil_sched.h"
#include "kernels/stencil/hyb_stencil_zfp.h"
#include "kernels/zfp/hyb_zfp_stage.h"

/* Every buffer carved from the workspace starts on this boundary. */
#define HYB_SD_ALIGN 256
/* Threads of the host copies (the host steps; the rollback copy has as
   many of its own) at most: about what saturates one socket's memory while
   the DMA engines read and write it too. */
#define HYB_SD_COPY_THREADS 8
/* The download lane: a download step whose schedule stream also carries
   kernels (out of core, seed 003 Algorithm 2) runs on a device stream of
   its own, forked from its stream by an event and joined back, so the
   schedule's order holds unchanged. Measured on the H200 (docs/stencil.md,
   "Where the pipeline's time goes"): a copy to the host on a stream that
   carries kernels held back the kernels of the other slots' streams until
   it ended; from a stream without kernels it does not. The schedule's
   device streams are below 2 x HYB_SS_SLOTS_MAX; this one is the
   context's last. */
#define HYB_SD_LANE ( HYB_DEV_STREAMS - 1 )
/* The codec stream: a compressed upload's decodes run there, so that the
   copies of its next pieces (into the other buffers of its ring) run
   beside the decode of this one instead of after it; on the upload's own
   stream the copy engine would wait for every decode. */
#define HYB_SD_CODEC ( HYB_DEV_STREAMS - 2 )
/* The encode stream: a compressed download's encodes run there into the
   lane's ring of piece buffers, each piece's copy to the host on the lane
   after its encode, so that the copies do not wait for each encode in
   turn (the encodes, like the decodes, start when the stencil's kernels
   leave room on the device). */
#define HYB_SD_ENCODE ( HYB_DEV_STREAMS - 3 )
_Static_assert( HYB_SD_ENCODE >= 2 * HYB_SS_SLOTS_MAX, "the schedule's device streams come first" );
_Static_assert(
    HYB_SD_ENCODE >= HYB_DEV_STREAMS - HYB_DEV_STREAMS_URGENT,
    "the codec's streams are urgent: their kernels go before the stencil's waiting blocks" );
/* A paced download's piece where HYBLAS_STENCIL_DOWN_PIECE is a percentage: of its
   default, the piece gpu_probe_duplex measured (docs/stencil.md). */
#define HYB_SD_PACE_PIECE ( 8.0 * 1024 * 1024 )

/* The host side of the compressed fields (issue 22): each compressed array
   of the schedule (every quantity's state arrays, as roles.state lists
   them; the acoustic's staging-out of the older level; the read-only
   fields) as one whole-field ZFP stream, whose bands of 4 planes begin on
   a byte. Every range a step moves is
   whole bands (the schedule is aligned), so each is a stream of its own:
   the chunk's remainder R_i and the two halves of the common regions M_i
   that a chunk reads or writes are byte ranges of the array's stream. A
   host copy of the schedule (commit, placement) copies those bytes. */
#define HYB_SD_ZSTATE ( 3 * HYB_STENCIL_QUANTS_MAX )
#define HYB_SD_ZARRS  ( HYB_SD_ZSTATE + 1 + HYB_STENCIL_COEFS_MAX )
typedef struct
{
	int                 state_on[HYB_STENCIL_QUANTS_MAX]; /* per quantity */
	hyb_stencil_zarr_t  state[HYB_SD_ZSTATE];             /* as roles.state */
	hyb_stencil_zarr_t  sout;
	hyb_stencil_zarr_t  coef[HYB_STENCIL_COEFS_MAX];
	hyb_stencil_zmem_t* mem; /* the block they are carved from: a handle's, or own */
	hyb_stencil_zmem_t  own;
} hyb_sd_zip_t;

/* The executor's context. With dev == NULL the operations only measure
   the memory the buffers need (the pointers they hand out are offsets). */
typedef struct
{
	hyb_dev_t*              dev;
	char*                   dbase; /* device workspace */
	char*                   hbase; /* page-locked staging */
	size_t                  dused, hused;
	int                     stream; /* the device stream of the step issued; -1: a host step */
	hyb_kernel_id_t         kernel;
	hyb_devent_t**          ev;   /* per step: recorded after it when another stream waits for it */
	hyb_devent_t**          pool; /* more events of the schedule (lane, codec), npool of cap */
	int64_t                 npool, cap_pool;
	uint8_t*                marks; /* per step: 1 when some step on another stream depends on it */
	hyb_stencil_dev_stats_t st;
	/* Compression: the arrays, the step being issued (-1: none), and per
	   device stream a buffer for the compressed bytes of one range (stream
	   order keeps one range's decode before the next range's copy). */
	const hyb_stencil_prob_t*  p;
	const hyb_stencil_sched_t* s;
	hyb_sd_zip_t*              z;
	int64_t                    cur;
	void*                      dstream[HYB_DEV_STREAMS];
	/* The step being issued, moving compressed pieces through its stream's
	   ring (hyb_sd_zsplit; reset as each step begins): per buffer the
	   decode or copy that last uses it, the last decode (an upload step's
	   stream waits for it at its end), and the buffer next. */
	hyb_devent_t* zfreed[HYB_STENCIL_ZFP_RING];
	hyb_devent_t* zlast;
	int           znext;
	size_t        zbuf; /* bytes of one stream buffer */
	/* The host steps' thread (NULL: the issuing thread does them), the
	   device events the host step being issued waits for, and per host
	   step the number of the queue's last copy it made. */
	hyb_team_t*     team;
	hyb_sd_hostq_t* hq;
	hyb_devent_t*   pend[HYB_SD_HOSTQ_EVENTS];
	int             npend;
	uint64_t*       hseq;
	/* The rollback copy every write of a caller's input level waits for
	   (NULL: none is taken). */
	hyb_sd_keep_t* keep;
	/* Fused ends (hyb_stencil_zfp_fused): in the run's first segment the
	   first block reads the caller's values, in its last segment the last
	   block and the final placement write values. */
	int raw_first, raw_last;
	/* Where a traced run's time goes (off without a trace). */
	hyb_sd_timeline_t tl;
	/* Paced downloads on the lane (hyb_sd_download_slab): pieces of pace_piece bytes with
	   pauses of pace_ns between them; pace_ns 0: whole slabs. */
	size_t   pace_piece;
	uint64_t pace_ns;
} hyb_sd_ctx_t;

static void* hyb_sd_alloc( void* ctx, size_t bytes, int host )
{
	hyb_sd_ctx_t* c    = ctx;
	size_t*       used = host ? &c->hused : &c->dused;
	char*         base = host ? c->hbase : c->dbase;
	const size_t  at   = *used;
	*used += ( bytes + HYB_SD_ALIGN - 1 ) / HYB_SD_ALIGN * HYB_SD_ALIGN;
	/* Measuring: any non-NULL pointer will do, nothing dereferences it. */
	return c->dev ? base + at : (void*)(uintptr_t)( at + HYB_SD_ALIGN );
}

static void hyb_sd_release( void* ctx, void* p, int host )
{
	/* The workspace and the staging stay cached in the context. */
	(void)ctx;
	(void)p;
	(void)host;
}

/* The one pair through which every uncompressed field slab crosses PCIe:
   host planes to a device slot, and a device slot's planes back (a
   compressed field's ranges go through the ZFP stage, hyb_sd_zcopy). */
static hyb_status_t hyb_sd_upload_slab( hyb_sd_ctx_t* c, void* dst, const void* src, size_t bytes )
{
	c->st.bytes_h2d += (double)bytes;
	return hyb_dev_h2d( c->dev, c->stream, dst, bytes, src, bytes, bytes, 1 );
}

/* On the download lane (out of core, beside the other slots' uploads), where pacing is asked
   for, a slab larger than a piece goes down paced: in pieces of c->pace_piece bytes, the lane
   pausing c->pace_ns between two of them (none after the last). Both directions at once
   share the bus about evenly; with the downloads paced so the uploads kept nearly their full
   rate in a probe of the bus alone (tools/gpu_probe_duplex on the H200), and a little more
   of it in the engine, at a cost to the plans its kernels bound (docs/stencil.md). The same
   bytes move either way. */
static hyb_status_t hyb_sd_download_slab( hyb_sd_ctx_t* c, void* dst, const void* src,
                                          size_t bytes )
{
	c->st.bytes_d2h += (double)bytes;
	const size_t piece = c->pace_piece;
	if ( c->pace_ns == 0 || c->stream != HYB_SD_LANE || piece == 0 || bytes <= piece )
		return hyb_dev_d2h( c->dev, c->stream, dst, bytes, src, bytes, bytes, 1 );
	hyb_status_t st = HYB_OK;
	for ( size_t at = 0; at < bytes && st == HYB_OK; at += piece )
	{
		const size_t n = bytes - at < piece ? bytes - at : piece;
		if ( at > 0 )
		{
			c->st.pauses++;
			st = hyb_dev_pause( c->dev, c->stream, c->pace_ns );
		}
		if ( st == HYB_OK )
			st = hyb_dev_d2h( c->dev, c->stream, (char*)dst + at, n, (const char*)src + at, n, n,
			                  1 );
	}
	return st;
}

/* A host step's copy: queued behind the device events it waits for, or
   (no queue) done here, its dependencies waited for already. */
static hyb_status_t hyb_sd_host_copy( hyb_sd_ctx_t* c, void* dst, const void* src, size_t bytes )
{
	c->st.bytes_host += (double)bytes;
	if ( c->hq == NULL )
	{
		memmove( dst, src, bytes );
		return HYB_OK;
	}
	uint64_t           seq;
	const hyb_status_t rc = hyb_sd_hostq_push( c->hq, c->pend, c->npend, dst, src, bytes, &seq );
	c->npend              = 0; /* the step's later copies follow this one */
	return rc;
}

/* The compressed array that host field `role` moves through (NULL: raw). */
static hyb_stencil_zarr_t* hyb_sd_zarr_of( hyb_sd_ctx_t* c, int role )
{
	hyb_stencil_roles_t r;
	hyb_stencil_roles( c->p->kind, &r );
	for ( int j = 0; j < r.quants * r.nstate; j++ )
		if ( r.state[j] == role ) return c->z->state_on[j / r.nstate] ? &c->z->state[j] : NULL;
	for ( int q = 0; q < r.ncoef; q++ )
		if ( r.coef[q] == role ) return c->z->coef[q].data ? &c->z->coef[q] : NULL;
	return NULL;
}

/* The host field whose array holds `ptr` (-1: none, e.g. staging). */
static int hyb_sd_role_at( const hyb_sd_ctx_t* c, const void* ptr )
{
	const size_t fbytes = (size_t)( hyb_stencil_plane_bytes( c->p ) * c->p->nz );
	for ( int f = 0; f < c->p->nfields; f++ )
	{
		const char* a = c->p->field[f];
		if ( (const char*)ptr >= a && (const char*)ptr < a + fbytes ) return f;
	}
	return -1;
}

/* A new event, destroyed with the schedule's events (*ev NULL on failure). */
static hyb_status_t hyb_sd_event( hyb_sd_ctx_t* c, hyb_devent_t** ev )
{
	*ev = NULL;
	if ( c->npool == c->cap_pool )
	{
		const int64_t  cap = c->cap_pool ? 2 * c->cap_pool : 64;
		hyb_devent_t** p   = realloc( c->pool, (size_t)cap * sizeof *p );
		if ( p == NULL ) return HYB_E_NO_MEMORY;
		c->pool     = p;
		c->cap_pool = cap;
	}
	const hyb_status_t rc = hyb_dev_event_create( c->dev, ev );
	if ( rc == HYB_OK ) c->pool[c->npool++] = *ev;
	return rc;
}

/* Device stream `to` waits for what stream `from` has queued (through an
   event of the schedule's pool). */
static hyb_status_t hyb_sd_hop( hyb_sd_ctx_t* c, int from, int to )
{
	hyb_devent_t* ev = NULL;
	hyb_status_t  rc = hyb_sd_event( c, &ev );
	if ( rc == HYB_OK ) rc = hyb_dev_record( c->dev, from, ev );
	if ( rc == HYB_OK ) rc = hyb_dev_wait( c->dev, to, ev );
	return rc;
}

/* Planes [z0, z1) between the slot at `dev` (plane z0 of the slot) and
   compressed array `a`, a step of the out-of-core schedule, in pieces
   through the ring of buffers of the step's stream (c->stream), the codec's
   kernels on a stream of their own so that no copy waits for them in turn.
   Up (an upload step on its copy stream): each piece's copy, then its
   decode on the codec stream; the step's other copies go on behind them
   and its end waits for the last decode (hyb_sd_zup_join). Down (a
   download step on the lane): each piece's encode on the encode stream,
   then its copy to the host on the lane; the encode stream first waits for
   what the lane has queued (the step's inputs, the copies that last read
   the ring). A piece's buffer is free again once the decode or the copy
   that last used it is done (c->zfreed, kept across the step's arrays). */
static hyb_status_t hyb_sd_zsplit( hyb_sd_ctx_t* c, hyb_stencil_zarr_t* a, void* dev, int64_t z0,
                                   int64_t z1, size_t raw, int down )
{
	const int64_t  piece = hyb_stencil_zarr_piece( a, c->p->zfp_piece_bytes );
	const size_t   pb    = raw / (size_t)( z1 - z0 );
	char*          ring  = c->dstream[c->stream];
	hyb_devent_t** freed = c->zfreed;
	hyb_status_t   st    = down ? hyb_sd_hop( c, HYB_SD_LANE, HYB_SD_ENCODE ) : HYB_OK;
	int            j     = c->znext;
	for ( int64_t lo = z0; lo < z1 && st == HYB_OK;
	      lo += piece, j = ( j + 1 ) % HYB_STENCIL_ZFP_RING )
	{
		const int64_t         hi  = z1 - lo < piece ? z1 : lo + piece;
		const hyb_zfp_field_t f   = hyb_stencil_zarr_slab( a, lo, hi );
		char*                 buf = ring + (size_t)j * c->zbuf;
		char*                 d   = (char*)dev + (size_t)( lo - z0 ) * pb;
		unsigned char*        h   = a->data + hyb_stencil_zarr_offset( a, lo );
		const double          n   = (double)hyb_stencil_zarr_bytes( a, lo, hi );
		hyb_devent_t *        mid = NULL, *done = NULL;
		st = hyb_sd_event( c, &mid );
		if ( st == HYB_OK ) st = hyb_sd_event( c, &done );
		if ( st != HYB_OK ) break;
		if ( down )
		{
			c->st.bytes_d2h += n;
			st = hyb_zfp_stage_down_split( c->dev, HYB_SD_ENCODE, c->stream, &f, a->rate, d, buf, h,
			                               freed[j], mid, done );
		}
		else
		{
			c->st.bytes_h2d += n;
			st = hyb_zfp_stage_up_split( c->dev, c->stream, HYB_SD_CODEC, &f, a->rate, h, buf, d,
			                             freed[j], mid, done );
			c->zlast = done;
		}
		freed[j] = done;
	}
	c->znext = j;
	if ( down )
		c->st.bytes_d2h_raw += (double)raw;
	else
		c->st.bytes_h2d_raw += (double)raw;
	return st;
}

/* The end of a step: its stream waits for its last decode (hyb_sd_zsplit
   up; the codec stream runs them in order), so that an upload step ends
   with its values in place and its ring free. */
static hyb_status_t hyb_sd_zup_join( hyb_sd_ctx_t* c )
{
	return c->zlast ? hyb_dev_wait( c->dev, c->stream, c->zlast ) : HYB_OK;
}

/* Planes [z0, z1) between the device at `dev` (plane z0 of the slot) and
   compressed array `a` through the stage (down: encode and download), in
   pieces of whole bands through the stream's one buffer: stream order
   keeps each piece's decode (or download) before the next piece reuses
   it. */
static hyb_status_t hyb_sd_zmove( hyb_sd_ctx_t* c, hyb_stencil_zarr_t* a, void* dev, int64_t z0,
                                  int64_t z1, size_t raw, int down )
{
	/* Out of core an upload's stream is a copy stream: decodes apart. */
	if ( ( !down && c->s->queue[c->s->steps[c->cur].stream] == HYB_SQ_COPY && c->stream >= 0 &&
	       c->stream < c->s->nslots ) ||
	     ( down && c->stream == HYB_SD_LANE ) )
		return hyb_sd_zsplit( c, a, dev, z0, z1, raw, down );
	const int64_t piece = hyb_stencil_zarr_piece( a, c->p->zfp_piece_bytes );
	const size_t  pb    = raw / (size_t)( z1 - z0 ); /* bytes of a plane of values */
	void*         dbuf  = c->dstream[c->stream];
	hyb_status_t  st    = HYB_OK;
	for ( int64_t lo = z0; lo < z1 && st == HYB_OK; lo += piece )
	{
		const int64_t         hi = z1 - lo < piece ? z1 : lo + piece;
		const hyb_zfp_field_t f  = hyb_stencil_zarr_slab( a, lo, hi );
		unsigned char*        h  = a->data + hyb_stencil_zarr_offset( a, lo );
		char*                 d  = (char*)dev + (size_t)( lo - z0 ) * pb;
		const double          n  = (double)hyb_stencil_zarr_bytes( a, lo, hi );
		if ( down )
		{
			c->st.bytes_d2h += n;
			st = hyb_zfp_stage_down( c->dev, c->stream, &f, a->rate, d, dbuf, h, NULL, NULL );
		}
		else
		{
			c->st.bytes_h2d += n;
			st = hyb_zfp_stage_up( c->dev, c->stream, &f, a->rate, h, dbuf, d, NULL, NULL );
		}
	}
	if ( down )
		c->st.bytes_d2h_raw += (double)raw;
	else
		c->st.bytes_h2d_raw += (double)raw;
	return st;
}

/* A copy of the step being issued that concerns a compressed array: done
   here (*done = 1) through the stage or as a copy of compressed bytes. */
static hyb_status_t hyb_sd_zcopy( hyb_sd_ctx_t* c, void* dst, const void* src, size_t bytes,
                                  int dir, int* done )
{
	*done = 0;
	if ( c->z == NULL || c->cur < 0 ) return HYB_OK;
	const hyb_stencil_step_t* st = &c->s->steps[c->cur];
	hyb_sd_zip_t*             z  = c->z;
	/* Fused ends: values, as an uncompressed run moves them (the schedule
	   is one; only what a state index holds, values or a stream, differs). */
	if ( c->raw_first && st->op == HYB_SS_UPLOAD && st->block == 0 ) return HYB_OK;
	if ( c->raw_last && ( st->op == HYB_SS_HOSTCOPY ||
	                      ( st->op == HYB_SS_DOWNLOAD && st->block == c->s->blocks - 1 ) ) )
		return HYB_OK;
	if ( dir == HYB_SX_H2D && st->op == HYB_SS_UPLOAD )
	{
		const int           role = hyb_sd_role_at( c, src );
		hyb_stencil_zarr_t* a    = role >= 0 ? hyb_sd_zarr_of( c, role ) : NULL;
		if ( a == NULL ) return HYB_OK;
		*done = 1;
		return hyb_sd_zmove( c, a, dst, st->z0, st->z1, bytes, 0 );
	}
	/* A state copy moves one quantity's level; that quantity's compressed
	   array (NULL: it moves raw) is found from the host array written. The
	   staging-out part exists with one quantity only (two input levels). */
	hyb_stencil_zarr_t* to = st->field >= 0   ? hyb_sd_zarr_of( c, hyb_sd_role_at( c, dst ) )
	                         : z->state_on[0] ? &z->sout
	                                          : NULL;
	if ( to == NULL ) return HYB_OK;
	if ( dir == HYB_SX_D2H && st->op == HYB_SS_DOWNLOAD )
	{
		*done = 1;
		return hyb_sd_zmove( c, to, (void*)src, st->z0, st->z1, bytes, 1 );
	}
	if ( dir == HYB_SX_H2H && ( st->op == HYB_SS_COMMIT || st->op == HYB_SS_HOSTCOPY ) )
	{
		/* The device steps this host step depends on are complete
		   (hyb_sd_before), so their compressed bytes are in place. */
		const hyb_stencil_zarr_t* from =
		    st->op == HYB_SS_COMMIT ? &z->sout : hyb_sd_zarr_of( c, hyb_sd_role_at( c, src ) );
		const size_t off = hyb_stencil_zarr_offset( to, st->z0 );
		const size_t n   = hyb_stencil_zarr_bytes( to, st->z0, st->z1 );
		*done            = 1;
		return hyb_sd_host_copy( c, to->data + off, from->data + off, n );
	}
	return HYB_OK;
}

static hyb_status_t hyb_sd_copy( void* ctx, int stream, void* dst, const void* src, size_t bytes,
                                 int dir )
{
	hyb_sd_ctx_t* c = ctx;
	(void)stream;
	if ( c->dev == NULL || bytes == 0 ) return HYB_OK;
	int                done = 0;
	const hyb_status_t zrc  = hyb_sd_zcopy( c, dst, src, bytes, dir, &done );
	if ( done ) return zrc;
	if ( dir == HYB_SX_H2D ) c->st.bytes_h2d_raw += (double)bytes;
	if ( dir == HYB_SX_D2H ) c->st.bytes_d2h_raw += (double)bytes;
	/* Downloads and host copies are the only writes to the caller's arrays. */
	if ( dir != HYB_SX_H2D && dir != HYB_SX_D2D ) hyb_sd_keep_cover( c->keep, dst, bytes );
	switch ( dir )
	{
	case HYB_SX_H2D:
		return hyb_sd_upload_slab( c, dst, src, bytes );
	case HYB_SX_D2H:
		return hyb_sd_download_slab( c, dst, src, bytes );
	case HYB_SX_D2D:
		c->st.bytes_d2d += (double)bytes;
		return hyb_dev_d2d( c->dev, c->stream, dst, bytes, src, bytes, bytes, 1 );
	default:
		/* A host step: its dependencies on device steps are waited for
		   before it (hyb_sd_before, or the queue). */
		return hyb_sd_host_copy( c, dst, src, bytes );
	}
}

/* Whether step i of s runs on the host (a copy team's queue). */
static int hyb_sd_host_step( const hyb_stencil_sched_t* s, int64_t i )
{
	return s->queue[s->steps[i].stream] == HYB_SQ_HOST;
}

/* Whether step i of s runs on the download lane (HYB_SD_LANE). */
static int hyb_sd_on_lane( const hyb_stencil_sched_t* s, int64_t i )
{
	return s->steps[i].op == HYB_SS_DOWNLOAD && s->queue[s->steps[i].stream] == HYB_SQ_COMPUTE;
}

/* Before step i: a device step waits on its stream for the events of the
   device steps of other streams it depends on, and on the host for the
   host steps it depends on; a host step hands its device events to the
   queue, which waits for them before its copies (earlier host steps are
   done first: the queue runs in order). Without a queue the host waits. */
static hyb_status_t hyb_sd_before( void* ctx, const hyb_stencil_sched_t* s, int64_t i )
{
	hyb_sd_ctx_t*             c    = ctx;
	const hyb_stencil_step_t* st   = &s->steps[i];
	const int                 host = hyb_sd_host_step( s, i );
	c->stream                      = host ? -1 : st->stream;
	c->cur                         = i;
	c->npend                       = 0;
	memset( c->zfreed, 0, sizeof c->zfreed );
	c->zlast        = NULL;
	c->znext        = 0;
	hyb_status_t rc = c->hq ? hyb_sd_hostq_status( c->hq ) : HYB_OK;
	const double t0 = c->tl.on ? hyb_now() : 0.0;
	for ( int64_t e = 0; e < st->ndep && rc == HYB_OK; e++ )
	{
		const int64_t j = s->deps[st->dep0 + e];
		if ( hyb_sd_host_step( s, j ) )
		{
			/* A host step's copies are done before a device step uses them. */
			if ( !host && c->hq ) rc = hyb_sd_hostq_wait( c->hq, c->hseq[j] );
		}
		else if ( !host && s->steps[j].stream != st->stream )
			rc = hyb_dev_wait( c->dev, c->stream, c->ev[j] );
		else if ( host && c->hq && c->npend < HYB_SD_HOSTQ_EVENTS )
			c->pend[c->npend++] = c->ev[j];
		else if ( host )
			rc = hyb_dev_sync( c->dev, c->ev[j] );
	}
	if ( c->tl.on && !host )
	{
		c->tl.issue_wait += hyb_now() - t0;
		hyb_sd_timeline_mark( &c->tl, c->dev, c->stream, i, 0 );
	}
	if ( rc == HYB_OK && hyb_sd_on_lane( s, i ) )
	{
		rc = hyb_sd_hop( c, c->stream, HYB_SD_LANE );
		if ( rc == HYB_OK ) c->stream = HYB_SD_LANE;
	}
	return rc;
}

/* After step i: a device step's event, where another stream waits for it;
   a host step's last copy in the queue. */
static hyb_status_t hyb_sd_after( void* ctx, const hyb_stencil_sched_t* s, int64_t i )
{
	hyb_sd_ctx_t* c = ctx;
	if ( !hyb_sd_host_step( s, i ) )
	{
		const hyb_status_t rc = hyb_sd_zup_join( c );
		if ( rc != HYB_OK ) return rc;
	}
	if ( hyb_sd_on_lane( s, i ) && c->stream == HYB_SD_LANE )
	{
		c->stream             = s->steps[i].stream;
		const hyb_status_t rc = hyb_sd_hop( c, HYB_SD_LANE, c->stream );
		if ( rc != HYB_OK ) return rc;
	}
	if ( hyb_sd_host_step( s, i ) && c->hq ) c->hseq[i] = hyb_sd_hostq_pushed( c->hq );
	if ( !hyb_sd_host_step( s, i ) ) hyb_sd_timeline_mark( &c->tl, c->dev, c->stream, i, 1 );
	if ( !c->marks[i] || hyb_sd_host_step( s, i ) ) return HYB_OK;
	hyb_status_t rc = hyb_dev_event_create( c->dev, &c->ev[i] );
	if ( rc == HYB_OK ) rc = hyb_dev_record( c->dev, c->stream, c->ev[i] );
	return rc;
}

static hyb_status_t hyb_sd_compute( void* ctx, int stream, int32_t kind,
                                    const hyb_stencil_args_t* a )
{
	hyb_sd_ctx_t* c = ctx;
	(void)stream;
	(void)kind;
	if ( c->dev == NULL ) return HYB_OK;
	return hyb_dev_launch( c->dev, c->stream, c->kernel, a );
}

static hyb_status_t hyb_sd_finish( void* ctx )
{
	hyb_sd_ctx_t* c  = ctx;
	hyb_status_t  rc = c->hq ? hyb_sd_hostq_wait( c->hq, hyb_sd_hostq_pushed( c->hq ) ) : HYB_OK;
	for ( int q = 0; c->dev && q < HYB_DEV_STREAMS; q++ )
	{
		const hyb_status_t qs = hyb_dev_stream_sync( c->dev, q );
		if ( rc == HYB_OK ) rc = qs;
	}
	return rc;
}

double hyb_stencil_device_register( const hyb_stencil_prob_t* p,
                                    const unsigned char       skip[HYB_STENCIL_FIELDS_MAX],
                                    unsigned char             locked[HYB_STENCIL_FIELDS_MAX] )
{
	const double t0     = hyb_now();
	const size_t fbytes = (size_t)( hyb_stencil_plane_bytes( p ) * p->nz );
	hyb_dev_t*   dev    = NULL;
	memset( locked, 0, HYB_STENCIL_FIELDS_MAX );
	if ( hyb_dev_acquire( 0, &dev ) != HYB_OK ) return hyb_now() - t0;
	for ( int f = 0; f < p->nfields && f < HYB_STENCIL_FIELDS_MAX; f++ )
		locked[f] =
		    p->field[f] && !skip[f] && hyb_dev_register( dev, p->field[f], fbytes ) == HYB_OK;
	hyb_dev_release( dev );
	return hyb_now() - t0;
}

void hyb_stencil_device_unregister( const hyb_stencil_prob_t* p,
                                    unsigned char             locked[HYB_STENCIL_FIELDS_MAX] )
{
	int any = 0;
	for ( int f = 0; f < HYB_STENCIL_FIELDS_MAX; f++ ) any |= locked[f];
	hyb_dev_t* dev = NULL;
	if ( any && hyb_dev_acquire( 0, &dev ) == HYB_OK )
	{
		for ( int f = 0; f < p->nfields && f < HYB_STENCIL_FIELDS_MAX; f++ )
			if ( locked[f] ) hyb_dev_unregister( dev, p->field[f] );
		hyb_dev_release( dev );
	}
	memset( locked, 0, HYB_STENCIL_FIELDS_MAX );
}

int hyb_stencil_device_usable( int32_t kind )
{
	const hyb_kernel_id_t id = hyb_stencil_kernel_id( kind );
	return id != HYB_KERNEL_NONE && hyb_devices_ensure() == HYB_OK &&
	       hyb_devices_kernel_supported( id );
}

/* ------------------------------------------------------------ compressed arrays */

/* Every compressed array of z (some without data). */
static void hyb_sd_zip_list( hyb_sd_zip_t* z, hyb_stencil_zarr_t* all[HYB_SD_ZARRS] )
{
	int n = 0;
	for ( int j = 0; j < HYB_SD_ZSTATE; j++ ) all[n++] = &z->state[j];
	all[n++] = &z->sout;
	for ( int q = 0; q < HYB_STENCIL_COEFS_MAX; q++ ) all[n++] = &z->coef[q];
}

static void hyb_sd_zmem_release( hyb_stencil_zmem_t* m, hyb_dev_t* dev )
{
	if ( m->locked ) hyb_dev_unregister( dev, m->mem );
	free( m->mem );
	memset( m, 0, sizeof *m );
}

void hyb_stencil_held_free( hyb_stencil_held_t* h )
{
	if ( h == NULL ) return;
	hyb_sd_keep_mem_free( &h->keep );
	/* Without a device (a child of fork()) the pages stay as they are. */
	hyb_dev_t* dev = NULL;
	if ( h->zip.locked && hyb_dev_acquire( 0, &dev ) != HYB_OK ) h->zip.locked = 0;
	hyb_sd_zmem_release( &h->zip, dev );
	if ( dev ) hyb_dev_release( dev );
}

/* Which of p's arrays are compressed, and where the run's compressed
   arrays will live: `held` (a handle's, kept across runs) or the run's
   own (NULL). Nothing allocated yet: hyb_sd_zip_carve. */
static void hyb_sd_zip_init( hyb_sd_zip_t* z, const hyb_stencil_prob_t* p,
                             const hyb_stencil_roles_t* r, hyb_stencil_zmem_t* held )
{
	memset( z, 0, sizeof *z );
	for ( int q = 0; q < r->quants; q++ ) z->state_on[q] = hyb_stencil_state_rate( p, q ) != 0.0;
	z->mem = held ? held : &z->own;
}

/* The compressed arrays (nothing coded yet: hyb_sd_zip_ends) carved from
   one block, page-locked with `dev` so that the stage's copies overlap
   the kernels. A handle's block, large enough and locked by an earlier
   run, is reused as it is: locking gigabytes of fresh memory costs
   seconds. A block that cannot be locked is copied from pageable memory,
   correctly but slower. HYB_OK or HYB_E_NO_MEMORY. */
static hyb_status_t hyb_sd_zip_carve( hyb_sd_zip_t* z, const hyb_stencil_prob_t* p,
                                      const hyb_stencil_roles_t* r, hyb_dev_t* dev )
{
	/* Each array's rate, in the order of hyb_sd_zip_list. */
	double rate[HYB_SD_ZARRS] = { 0 };
	for ( int q = 0; q < r->quants; q++ )
		for ( int j = 0; z->state_on[q] && j < r->nstate; j++ )
			rate[q * r->nstate + j] = hyb_stencil_state_rate( p, q );
	if ( z->state_on[0] && r->inputs == 2 ) rate[HYB_SD_ZSTATE] = hyb_stencil_state_rate( p, 0 );
	for ( int q = 0; q < r->ncoef; q++ ) rate[HYB_SD_ZSTATE + 1 + q] = p->rate[r->coef[q]];
	size_t room[HYB_SD_ZARRS], total = 0;
	for ( int i = 0; i < HYB_SD_ZARRS; i++ )
	{
		/* 64 bytes apart: no two arrays share a cache line. */
		room[i] = rate[i] != 0.0 ? ( hyb_stencil_zarr_room( p, rate[i] ) + 63u ) & ~(size_t)63u : 0;
		total += room[i];
	}
	hyb_stencil_zmem_t* m = z->mem;
	if ( m->bytes < total )
	{
		hyb_sd_zmem_release( m, dev );
		void* block = NULL;
		if ( posix_memalign( &block, 4096, total ) != 0 ) return HYB_E_NO_MEMORY;
		m->mem    = block;
		m->bytes  = total;
		m->locked = hyb_dev_register( dev, block, total ) == HYB_OK;
	}
	hyb_stencil_zarr_t* all[HYB_SD_ZARRS];
	hyb_sd_zip_list( z, all );
	size_t at = 0;
	for ( int i = 0; i < HYB_SD_ZARRS; i++ )
	{
		if ( room[i] == 0 ) continue;
		const hyb_status_t st = hyb_stencil_zarr_init( all[i], p, rate[i], (char*)m->mem + at );
		if ( st != HYB_OK ) return st;
		at += room[i];
	}
	return HYB_OK;
}

/* The run is over: its own block given back (a handle's stays). */
static void hyb_sd_zip_free( hyb_sd_zip_t* z, hyb_dev_t* dev )
{
	hyb_stencil_zarr_t* all[HYB_SD_ZARRS];
	hyb_sd_zip_list( z, all );
	for ( int i = 0; i < HYB_SD_ZARRS; i++ ) hyb_stencil_zarr_free( all[i] );
	if ( z->mem == &z->own ) hyb_sd_zmem_release( &z->own, dev );
}

/* A run's two ends through the device's codec: before it (store = 0) the
   input levels and the read-only fields encoded from the caller's arrays
   (libzfp's bits, as the host codec would write them); after it (store =
   1, the run complete) the input levels decoded into them, its result. */
static hyb_status_t hyb_sd_zip_ends( hyb_sd_zip_t* z, const hyb_stencil_prob_t* p,
                                     const hyb_stencil_roles_t* r, hyb_dev_t* dev, int store,
                                     hyb_stencil_dev_stats_t* st )
{
	hyb_stencil_zfill_bytes_t b  = { 0 };
	hyb_status_t              rc = HYB_OK;
	const int64_t             pc = p->zfp_piece_bytes;
	/* Fused ends: the blocks themselves read and write the levels' values. */
	const int levels = !hyb_stencil_zfp_fused( p );
	for ( int q = 0; levels && q < r->quants; q++ )
		for ( int j = 0; z->state_on[q] && j < r->inputs && rc == HYB_OK; j++ )
		{
			const int i = q * r->nstate + j;
			void*     v = p->field[r->state[i]];
			rc          = store ? hyb_stencil_zfill_get( dev, &z->state[i], v, pc, &b )
			                    : hyb_stencil_zfill_put( dev, &z->state[i], v, pc, &b );
		}
	for ( int q = 0; !store && q < r->ncoef && rc == HYB_OK; q++ )
		if ( z->coef[q].data )
			rc = hyb_stencil_zfill_put( dev, &z->coef[q], p->field[r->coef[q]], pc, &b );
	st->bytes_h2d += b.h2d;
	st->bytes_d2h += b.d2h;
	st->bytes_h2d_raw += b.h2d_raw;
	st->bytes_d2h_raw += b.d2h_raw;
	return rc;
}

/* Bytes of a stream buffer: the largest piece of a range of at most
   `planes` planes of any compressed array (rounded up to 8: buffers laid
   end to end stay aligned for the codec). */
static size_t hyb_sd_zip_buffer( hyb_sd_zip_t* z, int64_t planes, int64_t limit )
{
	hyb_stencil_zarr_t* all[HYB_SD_ZARRS];
	hyb_sd_zip_list( z, all );
	size_t most = 0;
	for ( int i = 0; i < HYB_SD_ZARRS; i++ )
	{
		if ( all[i]->data == NULL ) continue;
		const int64_t rows  = hyb_zfp_slab_rows( &all[i]->f );
		const int64_t piece = hyb_stencil_zarr_piece( all[i], limit );
		const int64_t n     = planes < piece ? planes : piece;
		const size_t  b     = hyb_stencil_zarr_bytes( all[i], 0, n < rows ? n : rows );
		if ( b > most ) most = b;
	}
	return ( most + 7u ) & ~(size_t)7u;
}

/* The run proper on context `dev`; the buffers of `ex` are carved from its
   cached workspace and staging, then the stage's stream buffers. */
static hyb_status_t hyb_sd_execute( hyb_dev_t* dev, const hyb_stencil_prob_t* p,
                                    const hyb_stencil_sched_t* s, double* residual,
                                    hyb_sd_ctx_t* c )
{
	hyb_stencil_exec_ops_t ops = { c,
		                           hyb_sd_alloc,
		                           hyb_sd_release,
		                           hyb_sd_copy,
		                           hyb_sd_compute,
		                           hyb_sd_finish,
		                           hyb_sd_before,
		                           hyb_sd_after };
	hyb_stencil_exec_t     ex;
	/* Measure, then take memory of that size and carve it the same way. */
	c->dev   = NULL;
	c->dused = c->hused = 0;
	c->cur              = -1;
	c->s                = s;
	hyb_status_t rc     = hyb_stencil_exec_init( &ex, &ops, p, s );
	if ( rc != HYB_OK ) return rc;
	hyb_stencil_exec_free( &ex );
	/* One stream buffer per copy and compute stream of the slots: +3
	   planes for a range that ends at the domain's last partial band. */
	const size_t zbuf =
	    c->z ? hyb_sd_zip_buffer( c->z, s->slot_planes + 3, p->zfp_piece_bytes ) : 0;
	const size_t zoff = ( c->dused + HYB_SD_ALIGN - 1 ) / HYB_SD_ALIGN * HYB_SD_ALIGN;
	/* A ring per copy stream, one buffer per compute stream, the lane's ring. */
	const int    ring  = HYB_STENCIL_ZFP_RING;
	const int    nzs   = c->z ? ( ring + 1 ) * s->nslots : 0;
	const int    lanes = c->z ? ring : 0; /* the download lane's ring, after them */
	void*        dmem  = NULL;
	void*        hmem  = NULL;
	const size_t dneed = zoff + (size_t)( nzs + lanes ) * zbuf, hneed = c->hused;
	if ( ( rc = hyb_dev_workspace( dev, dneed ? dneed : 1, &dmem ) ) != HYB_OK ) return rc;
	if ( hneed && ( rc = hyb_dev_staging( dev, hneed, &hmem ) ) != HYB_OK ) return rc;
	c->dev   = dev;
	c->dbase = dmem;
	c->hbase = hmem;
	c->dused = c->hused = 0;
	c->zbuf             = zbuf;
	for ( int q = 0; c->z && q < 2 * s->nslots; q++ )
		c->dstream[q] =
		    (char*)dmem + zoff +
		    (size_t)( q < s->nslots ? q * ring : s->nslots * ring + q - s->nslots ) * zbuf;
	if ( lanes ) c->dstream[HYB_SD_LANE] = (char*)dmem + zoff + (size_t)nzs * zbuf;
	if ( ( rc = hyb_stencil_exec_init( &ex, &ops, p, s ) ) != HYB_OK ) return rc;
	/* No thread: the issuing thread does the host steps, in order. */
	if ( hyb_sd_hostq_start( dev, c->team, &c->hq ) != HYB_OK ) c->hq = NULL;
	/* Device steps that wait for a host step go after the next chunks' steps, which do not:
	   the issuing thread waits there (about two chunk visits' steps later). */
	int64_t*      order  = malloc( (size_t)( s->nsteps + 1 ) * sizeof *order );
	const int64_t visits = s->blocks > 0 && s->in.d > 0 && s->in.scheme != HYB_STENCIL_SCH_IN_CORE
	                           ? s->blocks * s->in.d
	                           : 1;
	if ( order && hyb_stencil_issue_order( s, 2 * ( s->nsteps / visits ), order ) != HYB_OK )
	{
		free( order );
		order = NULL;
	}
	rc = hyb_stencil_exec_run( &ex, s, order, -1, NULL );
	free( order );
	const hyb_status_t hs = hyb_sd_hostq_stop( c->hq );
	c->hq                 = NULL;
	if ( rc == HYB_OK ) rc = hs;
	c->stream = HYB_STREAM_COMPUTE;
	c->cur    = -1;
	if ( rc == HYB_OK ) rc = hyb_stencil_exec_residual( &ex, residual );
	hyb_stencil_exec_free( &ex );
	return rc;
}

/* One schedule of `steps` steps (a segment of the call) on `dev`. */
static hyb_status_t hyb_sd_segment( hyb_dev_t* dev, const hyb_stencil_prob_t* p, int64_t steps,
                                    int32_t scheme, int32_t d, int32_t k, double* residual,
                                    hyb_sd_ctx_t* c )
{
	const hyb_stencil_sched_in_t in = hyb_stencil_sched_in( p, scheme, d, k, steps );
	hyb_stencil_sched_t          s;
	hyb_status_t                 rc = hyb_stencil_sched_build( &in, &s );
	if ( rc != HYB_OK ) return rc;
	c->ev    = calloc( (size_t)s.nsteps + 1, sizeof *c->ev );
	c->marks = calloc( (size_t)s.nsteps + 1, 1 );
	c->hseq  = calloc( (size_t)s.nsteps + 1, sizeof *c->hseq );
	if ( c->ev == NULL || c->marks == NULL || c->hseq == NULL ) rc = HYB_E_NO_MEMORY;
	/* The steps another stream (or the host) waits for. */
	for ( int64_t i = 0; rc == HYB_OK && i < s.nsteps; i++ )
		for ( int64_t e = 0; e < s.steps[i].ndep; e++ )
		{
			const int64_t j = s.deps[s.steps[i].dep0 + e];
			c->marks[j] |= s.steps[j].stream != s.steps[i].stream;
		}
	if ( rc == HYB_OK ) hyb_sd_timeline_open( &c->tl, dev, s.nsteps );
	if ( rc == HYB_OK ) rc = hyb_sd_execute( dev, p, &s, residual, c );
	/* Nothing may still be writing the caller's arrays when the CPU takes over. */
	for ( int q = 0; q < HYB_DEV_STREAMS; q++ )
	{
		const hyb_status_t qs = hyb_dev_stream_sync( dev, q );
		if ( rc == HYB_OK && qs != HYB_OK ) rc = qs;
	}
	hyb_sd_timeline_close( &c->tl, dev, &s, rc == HYB_OK );
	for ( int64_t i = 0; c->ev && i < s.nsteps; i++ )
		if ( c->ev[i] ) hyb_dev_event_destroy( dev, c->ev[i] );
	for ( int64_t i = 0; i < c->npool; i++ ) hyb_dev_event_destroy( dev, c->pool[i] );
	HYB_FREE_ALL( c->ev, c->pool, c->marks, c->hseq );
	c->ev       = NULL;
	c->pool     = NULL;
	c->npool    = 0;
	c->cap_pool = 0;
	c->marks    = NULL;
	c->hseq     = NULL;
	c->s        = NULL;
	hyb_stencil_sched_free( &s );
	return rc;
}

hyb_status_t hyb_stencil_device_run( const hyb_stencil_prob_t* p, int64_t steps, int32_t scheme,
                                     int32_t d, int32_t k, int64_t every, hyb_stencil_check_fn cb,
                                     void* cbctx, hyb_stencil_held_t* held, double* residual,
                                     hyb_stencil_dev_stats_t* ds )
{
	const double t0 = hyb_now();
	memset( ds, 0, sizeof *ds );
	*residual = 0.0;
	hyb_stencil_roles_t roles;
	if ( !hyb_stencil_roles( p->kind, &roles ) || steps < 0 ) return HYB_E_INVALID;
	/* A plan the schedule refuses is refused before anything is made. */
	int64_t blocks = 0; /* temporal blocks of the first segment */
	{
		const hyb_stencil_sched_in_t in =
		    hyb_stencil_sched_in( p, scheme, d, k, every > 0 && every < steps ? every : steps );
		hyb_stencil_sched_t s;
		const hyb_status_t  brc = hyb_stencil_sched_build( &in, &s );
		if ( brc != HYB_OK ) return brc;
		blocks = s.blocks;
		hyb_stencil_sched_free( &s );
	}
	const int    zip    = hyb_stencil_compressed( p );
	const size_t fbytes = (size_t)( hyb_stencil_plane_bytes( p ) * p->nz );
	hyb_sd_zip_t z;
	hyb_sd_zip_init( &z, p, &roles, held ? &held->zip : NULL );
	hyb_status_t rc = HYB_OK;

	/* The copy team of the host steps and of putting the kept levels back. */
	const long cpus   = sysconf( _SC_NPROCESSORS_ONLN );
	const int threads = cpus > HYB_SD_COPY_THREADS ? HYB_SD_COPY_THREADS : cpus > 1 ? (int)cpus : 1;
	hyb_team_t* team  = threads > 1 ? hyb_team_create( threads - 1 ) : NULL;

	/* The input time levels as they were, kept while the run goes on: a
	   failure anywhere puts back what was kept (all that was overwritten),
	   so that the CPU path restarts from the caller's inputs (the work level
	   is written before it is read on the CPU path). A compressed
	   quantity's state is written to the caller's arrays only once the run
	   is complete, unless the ends are fused (the last block writes them),
	   so otherwise only the raw quantities' inputs are kept. */
	const int      fused = hyb_stencil_zfp_fused( p );
	hyb_sd_keep_t* keep  = NULL;
	void*          inputs[HYB_STENCIL_QUANTS_MAX * 3];
	int            nkeep = 0;
	/* Ranked by the block that first writes them: with two input levels
	   state field 0 (t-1) from the first block on and field 1 (t) from the
	   second, or side by side when the first block is the last (it puts
	   its newest level in place); one input level, each quantity's alike. */
	int rank[HYB_STENCIL_QUANTS_MAX * 3];
	for ( int q = 0; q < roles.quants; q++ )
		for ( int f = 0; ( fused || !z.state_on[q] ) && f < roles.inputs; f++ )
		{
			rank[nkeep]     = roles.inputs == 2 && f == 1 && blocks > 1;
			inputs[nkeep++] = p->field[hyb_stencil_state_role( &roles, q, f )];
		}
	/* More input arrays than a keep holds would leave some unprotected. */
	if ( rc == HYB_OK && nkeep > HYB_SD_KEEP_ARRAYS ) rc = HYB_E_INVALID;
	if ( rc == HYB_OK && nkeep > 0 && steps > 0 )
		rc = hyb_sd_keep_start( inputs, rank, nkeep, fbytes,
		                        hyb_sd_keep_team_size( rank, nkeep, threads ),
		                        held ? &held->keep : NULL, &keep );
	/* The checkpoints' newest level (of the first quantity), decoded. */
	const int zlast  = z.state_on[0];
	void*     newest = rc == HYB_OK && cb && zlast ? malloc( fbytes ) : NULL;
	if ( rc == HYB_OK && cb && zlast && newest == NULL ) rc = HYB_E_NO_MEMORY;
	hyb_dev_t*   dev = NULL;
	hyb_sd_ctx_t c;
	memset( &c, 0, sizeof c );
	c.stream = HYB_STREAM_COMPUTE;
	c.kernel = hyb_stencil_kernel_id( p->kind );
	c.p      = p;
	c.z      = zip ? &z : NULL;
	c.cur    = -1;
	c.team   = team;
	c.keep   = keep;
	/* Uncompressed downloads on the lane paced (HYBLAS_STENCIL_DOWN_PIECE, _PAUSE_NS). */
	const hyb_config_t* cfg = hyb_config();
	c.pace_ns               = (uint64_t)cfg->stencil_down_pause_ns;
	c.pace_piece = (size_t)hyb_cfg_size_bytes( cfg->stencil_down_piece, HYB_SD_PACE_PIECE );
	if ( rc == HYB_OK ) rc = hyb_dev_acquire( 0, &dev );
	const int    ran = rc == HYB_OK;
	const double t1  = hyb_now();
	/* The ends' coding is counted as host work (the statistics' host copy
	   time: setup and final part), the encoding before, the decoding after
	   the pipeline. */
	double t2 = t1, tf = t1, t3 = t1;
	if ( ran )
	{
		if ( zip ) rc = hyb_sd_zip_carve( &z, p, &roles, dev );
		t2 = hyb_now();
		if ( zip && steps > 0 && rc == HYB_OK )
			rc = hyb_sd_zip_ends( &z, p, &roles, dev, 0, &c.st );
		tf                 = hyb_now();
		const int64_t span = every > 0 ? every : ( steps > 0 ? steps : 1 );
		for ( int64_t t = 0; t < steps && rc == HYB_OK; t += span )
		{
			const int64_t n = steps - t < span ? steps - t : span;
			c.raw_first     = fused && t == 0;
			c.raw_last      = fused && t + n == steps;
			rc              = hyb_sd_segment( dev, p, n, scheme, d, k, residual, &c );
			if ( rc != HYB_OK || !cb ) continue;
			const int last = roles.state[roles.inputs - 1];
			/* The newest level is a stream, except after fused ends' last block. */
			const int decode = zlast && !c.raw_last;
			if ( decode )
			{
				hyb_stencil_zfill_bytes_t b = { 0 };
				rc = hyb_stencil_zfill_get( dev, &z.state[roles.inputs - 1], newest,
				                            p->zfp_piece_bytes, &b );
			}
			if ( rc == HYB_OK ) cb( cbctx, t + n, decode ? newest : p->field[last] );
		}
		t3 = hyb_now();
		/* The run is complete: the compressed time levels into the
		   caller's arrays (a failure before leaves them as given, for the
		   CPU path to start from). */
		if ( zip && steps > 0 && rc == HYB_OK )
			rc = hyb_sd_zip_ends( &z, p, &roles, dev, 1, &c.st );
		/* Unlock while the context is held. */
		hyb_sd_zip_free( &z, dev );
		hyb_dev_release( dev );
		if ( rc != HYB_OK ) *residual = 0.0;
	}
	/* Nothing writes the caller's arrays any more. */
	c.st.seconds_keep_wait = hyb_sd_keep_waited( keep );
	hyb_sd_keep_end( keep, ran && rc != HYB_OK, team );
	hyb_team_destroy( team );
	free( newest );
	const double t4      = hyb_now();
	*ds                  = c.st;
	ds->seconds_setup    = t1 - t0 + ( tf - t2 );
	ds->seconds_pin      = t2 - t1;
	ds->seconds_pipeline = t3 - tf;
	ds->seconds_final    = t4 - t3;
	return rc;
}
