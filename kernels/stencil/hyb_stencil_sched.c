/* SPDX-License-Identifier: BSD-3-Clause */
/* Building the schedule of a stencil run: the order of the steps (which
   decides what each step reads: the semantics), their streams, and their
   dependencies (from the hazard tracker, plus the rules that keep a failed
   run recoverable). docs/stencil.md explains the order. */
#include "kernels/stencil/hyb_stencil_sched.h"

#include <stdlib.h>
#include <string.h>

#include "kernels/stencil/hyb_stencil_track.h"

void hyb_stencil_split( int64_t n, int32_t d, int64_t* zb )
{
	const int64_t q = n / d, r = n % d;
	zb[0] = 0;
	for ( int32_t i = 0; i < d; i++ ) zb[i + 1] = zb[i] + q + ( i < r ? 1 : 0 );
}

void hyb_stencil_split_aligned( int64_t n, int32_t d, int32_t align, int64_t* zb )
{
	const int64_t a = align > 1 ? align : 1;
	hyb_stencil_split( ( n + a - 1 ) / a, d, zb );
	for ( int32_t i = 1; i <= d; i++ ) zb[i] = zb[i] * a < n ? zb[i] * a : n;
}

int64_t hyb_stencil_halo( int32_t h, int64_t kb, int32_t align )
{
	const int64_t a = align > 1 ? align : 1;
	return ( (int64_t)h * kb + a - 1 ) / a * a;
}

const char* hyb_stencil_op_name( int op )
{
	static const char* names[] = { "stage",    "upload", "share",   "compute",
		                           "download", "commit", "hostcopy" };
	return op >= 0 && op <= HYB_SS_HOSTCOPY ? names[op] : "?";
}

static int64_t hyb_sb_min( int64_t a, int64_t b )
{
	return a < b ? a : b;
}

static int64_t hyb_sb_max( int64_t a, int64_t b )
{
	return a > b ? a : b;
}

int hyb_stencil_step_accesses( const hyb_stencil_sched_t* s, const hyb_stencil_step_t* st,
                               hyb_stencil_access_t acc[4] )
{
	int     n  = 0;
	int64_t lo = st->z0, hi = st->z1;
	int64_t local = st->z0 - st->base;
#define HYB_ACC( r, w, a, b ) ( acc[n++] = ( hyb_stencil_access_t ){ ( r ), ( w ), ( a ), ( b ) } )
	switch ( st->op )
	{
	case HYB_SS_STAGE:
	case HYB_SS_UPLOAD:
		if ( st->op == HYB_SS_UPLOAD && st->src[0] < 0 )
			HYB_ACC( HYB_SR_SIN + st->slot, 0, local, local + hi - lo );
		else
			for ( int i = 0; i < 2; i++ )
				if ( st->src[i] >= 0 ) HYB_ACC( st->src[i], 0, lo, hi );
		HYB_ACC( ( st->op == HYB_SS_STAGE ? HYB_SR_SIN : HYB_SR_SLOT ) + st->slot, 1, local,
		         local + hi - lo );
		break;
	case HYB_SS_SHARE:
		HYB_ACC( HYB_SR_SLOT + st->slot, 0, local, local + hi - lo );
		HYB_ACC( HYB_SR_SLOT + st->dst_slot, 1, lo - st->dst_base, hi - st->dst_base );
		break;
	case HYB_SS_COMPUTE:
	{
		/* Reads h planes either side (clipped to the domain, then to the
		   buffer by the tracker). */
		const int64_t rlo = hyb_sb_max( lo - s->in.h, 0 ) - st->base;
		const int64_t rhi = hyb_sb_min( hi + s->in.h, s->in.n ) - st->base;
		HYB_ACC( HYB_SR_SLOT + st->slot, 0, rlo, rhi );
		HYB_ACC( HYB_SR_SLOT + st->slot, 1, local, local + hi - lo );
		break;
	}
	case HYB_SS_DOWNLOAD:
		HYB_ACC( HYB_SR_SLOT + st->slot, 0, local, local + hi - lo );
		if ( st->field >= 0 )
			HYB_ACC( st->field, 1, lo, hi );
		else
			HYB_ACC( HYB_SR_SOUT + st->slot, 1, lo - st->dst_base, hi - st->dst_base );
		break;
	case HYB_SS_COMMIT:
		HYB_ACC( HYB_SR_SOUT + st->slot, 0, lo - st->dst_base, hi - st->dst_base );
		HYB_ACC( st->field, 1, lo, hi );
		break;
	case HYB_SS_HOSTCOPY:
		HYB_ACC( st->src[0], 0, lo, hi );
		HYB_ACC( st->field, 1, lo, hi );
		break;
	default:
		break;
	}
#undef HYB_ACC
	return n;
}

/* ------------------------------------------------------------------ builder */

typedef struct
{
	hyb_stencil_sched_t* s;
	hyb_stencil_track_t  track;
	int64_t              cap_steps, cap_deps, cap_mark;
	int64_t*             mark; /* per step: the last step that listed it as a dependency */
	hyb_status_t         err;
	int64_t              cur; /* the step being emitted */
} hyb_sb_t;

static int hyb_sb_grow( void** p, int64_t* cap, int64_t need, size_t elem )
{
	if ( need <= *cap ) return 1;
	int64_t c = *cap ? *cap : 256;
	while ( c < need ) c *= 2;
	void* q = realloc( *p, (size_t)c * elem );
	if ( q == NULL ) return 0;
	*p   = q;
	*cap = c;
	return 1;
}

/* Add dependency i of the current step (once; never on its own stream,
   whose order already holds). */
static void hyb_sb_dep( void* ctx, int64_t i )
{
	hyb_sb_t*            b = ctx;
	hyb_stencil_sched_t* s = b->s;
	if ( b->err != HYB_OK || i < 0 || i >= b->cur || b->mark[i] == b->cur ) return;
	b->mark[i] = b->cur;
	if ( s->steps[i].stream == s->steps[b->cur].stream ) return;
	if ( !hyb_sb_grow( (void**)&s->deps, &b->cap_deps, s->ndeps + 1, sizeof *s->deps ) )
	{
		b->err = HYB_E_NO_MEMORY;
		return;
	}
	s->deps[s->ndeps++] = i;
	s->steps[b->cur].ndep++;
}

/* Append `st`, with its hazards and the extra dependencies extra[0 .. nx);
   returns its index (-1 once out of memory). */
static int64_t hyb_sb_emit( hyb_sb_t* b, hyb_stencil_step_t st, const int64_t* extra, int nx )
{
	hyb_stencil_sched_t* s = b->s;
	if ( b->err != HYB_OK ) return -1;
	if ( !hyb_sb_grow( (void**)&s->steps, &b->cap_steps, s->nsteps + 1, sizeof *s->steps ) ||
	     !hyb_sb_grow( (void**)&b->mark, &b->cap_mark, s->nsteps + 1, sizeof *b->mark ) )
	{
		b->err = HYB_E_NO_MEMORY;
		return -1;
	}
	const int64_t j = s->nsteps++;
	st.dep0         = s->ndeps;
	st.ndep         = 0;
	s->steps[j]     = st;
	b->cur          = j;
	b->mark[j]      = -1;
	hyb_stencil_access_t acc[4];
	const int            nacc = hyb_stencil_step_accesses( s, &s->steps[j], acc );
	hyb_stencil_track_step( &b->track, j, acc, nacc, hyb_sb_dep, b );
	for ( int i = 0; i < nx; i++ ) hyb_sb_dep( b, extra[i] );

	/* What the step moves or computes, in planes of one array. */
	const int64_t len    = st.z1 - st.z0;
	const int64_t quants = s->in.quants > 1 ? s->in.quants : 1;
	const int64_t arrays = s->in.inputs * quants + s->in.ncoef;
	switch ( st.op )
	{
	case HYB_SS_STAGE:
		s->planes_host += len * arrays;
		break;
	case HYB_SS_UPLOAD:
		s->planes_h2d += len * arrays;
		break;
	case HYB_SS_SHARE:
		s->planes_d2d += len * arrays;
		break;
	case HYB_SS_COMPUTE:
		s->planes_computed += len;
		break;
	case HYB_SS_DOWNLOAD:
		s->planes_d2h += len * quants;
		break;
	default:
		s->planes_host += len * quants;
		break;
	}
	return b->err == HYB_OK ? j : -1;
}

/* A step with the fields every step has. */
static hyb_stencil_step_t hyb_sb_step( int op, int stream, int slot, int64_t z0, int64_t z1,
                                       int64_t base, int64_t level, int32_t chunk, int64_t block )
{
	hyb_stencil_step_t st;
	memset( &st, 0, sizeof st );
	st.op     = (int8_t)op;
	st.stream = (int8_t)stream;
	st.slot   = (int8_t)slot;
	st.field  = -1;
	st.src[0] = st.src[1] = -1;
	st.z0                 = z0;
	st.z1                 = z1;
	st.base               = base;
	st.level              = level;
	st.chunk              = chunk;
	st.block              = (int32_t)block;
	return st;
}

/* ------------------------------------------------------------------ out of core */

/* Whether the older level of two input levels goes down through
   staging-out part 1 and a commit (restartable, or copying: DMA only from
   and to page-locked buffers of its own), rather than straight from its
   slot into the state field. */
static int hyb_sb_old_staged( const hyb_stencil_sched_t* s )
{
	return s->in.inputs == 2 && ( s->in.restartable || s->in.scheme == HYB_STENCIL_SCH_COPY );
}

/* With `newest`, the newest level of a chunk to its state field (or,
   copying, through staging-out part 0), and with two inputs staged the
   older one to staging-out part 1. Appends the download steps to dl
   (their count is returned). */
static int hyb_sb_chunk_out( hyb_sb_t* b, int slot, int64_t base, int32_t i, int64_t blk,
                             int64_t level, int out_idx, int newest, int64_t* dl )
{
	hyb_stencil_sched_t* s    = b->s;
	const int            S    = s->nslots;
	const int            copy = s->in.scheme == HYB_STENCIL_SCH_COPY;
	const int64_t        z0 = s->zb[i], z1 = s->zb[i + 1];
	int                  n = 0;
	hyb_stencil_step_t   st =
	    hyb_sb_step( HYB_SS_DOWNLOAD, S + slot, slot, z0, z1, base, level, i, blk );
	st.dst_base = z0;
	st.field    = (int8_t)( copy ? -1 : out_idx );
	st.part     = 0;
	if ( newest ) dl[n++] = hyb_sb_emit( b, st, NULL, 0 );
	if ( newest && copy )
	{
		hyb_stencil_step_t c =
		    hyb_sb_step( HYB_SS_COMMIT, 2 * S + 1, slot, z0, z1, 0, level, i, blk );
		c.dst_base = z0;
		c.field    = (int8_t)out_idx;
		hyb_sb_emit( b, c, NULL, 0 );
	}
	if ( hyb_sb_old_staged( s ) )
	{
		st.level = level - 1;
		st.field = -1;
		st.part  = 1;
		dl[n++]  = hyb_sb_emit( b, st, NULL, 0 );
	}
	return n;
}

/* The older level of chunk i (in staging-out part 1 of its slot) into the
   state field prev_idx, after the steps extra[0 .. nx). */
static void hyb_sb_commit_old( hyb_sb_t* b, int32_t i, int64_t blk, int prev_idx,
                               const int64_t* extra, int nx )
{
	hyb_stencil_sched_t* s    = b->s;
	const int            S    = s->nslots;
	const int            slot = (int)( ( blk * s->in.d + i ) % S );
	hyb_stencil_step_t   c =
	    hyb_sb_step( HYB_SS_COMMIT, 2 * S + 1, slot, s->zb[i], s->zb[i + 1], 0, 0, i, blk );
	c.dst_base = s->zb[i];
	c.field    = (int8_t)prev_idx;
	c.part     = 1;
	hyb_sb_emit( b, c, extra, nx );
}

/* Level `level` of chunk i of block blk into a state field that the
   block's uploads read (not restartable): the older level (t + kb - 1)
   into t-1's field, and in the last of an odd number of blocks the newest
   into t's, its final place. Copying, the older level's commit from
   staging-out; else a download from the slot, which has held the level
   since the chunk's steps. Emitted once no later step of the block reads
   the planes it overwrites (the next chunk's upload, whose halo reaches
   into chunk i, comes before), so the hazard tracker orders it after
   their readers. */
static void hyb_sb_late_out( hyb_sb_t* b, int32_t i, int64_t blk, int64_t hk, int64_t level,
                             int field )
{
	hyb_stencil_sched_t* s = b->s;
	if ( s->in.scheme == HYB_STENCIL_SCH_COPY )
	{
		hyb_sb_commit_old( b, i, blk, field, NULL, 0 );
		return;
	}
	const int          S    = s->nslots;
	const int          slot = (int)( ( blk * s->in.d + i ) % S );
	const int64_t      z0 = s->zb[i], z1 = s->zb[i + 1];
	hyb_stencil_step_t st = hyb_sb_step( HYB_SS_DOWNLOAD, S + slot, slot, z0, z1,
	                                     hyb_sb_max( z0 - hk, 0 ), level, i, blk );
	st.dst_base           = z0;
	st.field              = (int8_t)field;
	hyb_sb_emit( b, st, NULL, 0 );
}

static void hyb_sb_out_of_core( hyb_sb_t* b )
{
	hyb_stencil_sched_t*          s  = b->s;
	const hyb_stencil_sched_in_t* in = &s->in;
	const int                     S  = s->nslots;
	const int32_t                 d  = in->d;
	const int64_t                 n = in->n, h = in->h;
	const int                     shared = in->scheme == HYB_STENCIL_SCH_SHARED;
	const int                     copy   = in->scheme == HYB_STENCIL_SCH_COPY;
	const int                     two    = in->inputs == 2;
	const int                     staged = hyb_sb_old_staged( s );
	/* After an odd number of blocks the newest level would end in the work
	   array: the last block puts it in its final place instead (the field
	   it reads level t from), so no host copy follows the run. */
	const int direct_final = !in->restartable && !copy && s->blocks % 2 == 1;
	for ( int64_t blk = in->block_begin; blk < in->block_end && b->err == HYB_OK; blk++ )
	{
		const int64_t t  = blk * in->k;
		const int64_t kb = hyb_sb_min( in->k, in->steps - t );
		/* The halo each side; beyond h * kb only when aligned (those planes
		   are moved but never needed). */
		const int64_t hk = hyb_stencil_halo( (int32_t)h, kb, in->align );
		/* Host fields of the block: level t in in_idx (t-1 in prev_idx), the
		   new level to out_idx, which no chunk of this block reads. */
		const int     in_idx   = two ? ( blk % 2 == 0 ? 1 : 2 ) : (int)( blk % 2 );
		const int     out_idx  = two ? 3 - in_idx : 1 - in_idx;
		const int     prev_idx = two ? 0 : -1;
		const int     first    = blk == in->block_begin;
		const int     to_final = direct_final && blk == s->blocks - 1;
		const int32_t i0       = first ? in->first_chunk : 0;
		const int32_t c0       = first ? in->pending_commit : 0;
		/* A resumed block first commits the older levels of the finished
		   chunks whose successor is finished too. */
		if ( staged )
			for ( int32_t c = c0; c + 1 < i0; c++ )
				hyb_sb_commit_old( b, c, blk, prev_idx, NULL, 0 );
		for ( int32_t i = i0; i < d && b->err == HYB_OK; i++ )
		{
			const int     slot = (int)( ( blk * d + i ) % S );
			const int64_t z0 = s->zb[i], z1 = s->zb[i + 1];
			const int64_t lo = hyb_sb_max( z0 - hk, 0 ), hi = hyb_sb_min( z1 + hk, n );
			/* With region sharing the chunk's top halo and the top of its
			   planes arrived from the previous chunk's buffer. */
			const int64_t ulo = shared && i > i0 ? hyb_sb_min( z0 + hk, hi ) : lo;
			if ( ulo < hi )
			{
				hyb_stencil_step_t up =
				    hyb_sb_step( HYB_SS_UPLOAD, slot, slot, ulo, hi, lo, t, i, blk );
				up.src[0] = (int8_t)in_idx;
				up.src[1] = (int8_t)prev_idx;
				if ( copy )
				{
					hyb_stencil_step_t sg = up;
					sg.op                 = HYB_SS_STAGE;
					sg.stream             = (int8_t)( 2 * S );
					hyb_sb_emit( b, sg, NULL, 0 );
					up.src[0] = up.src[1] = -1;
				}
				hyb_sb_emit( b, up, NULL, 0 );
			}
			if ( to_final && i > i0 ) hyb_sb_late_out( b, i - 1, blk, hk, t + kb, in_idx );
			if ( two && !in->restartable && i > i0 )
				hyb_sb_late_out( b, i - 1, blk, hk, t + kb - 1, prev_idx );
			if ( shared && i + 1 < d )
			{
				const int64_t      slo = z1 - hk, shi = hyb_sb_min( z1 + hk, n );
				hyb_stencil_step_t sh =
				    hyb_sb_step( HYB_SS_SHARE, slot, slot, slo, shi, lo, t, i, blk );
				sh.dst_slot = (int8_t)( ( blk * d + i + 1 ) % S );
				sh.dst_base = slo;
				hyb_sb_emit( b, sh, NULL, 0 );
			}
			for ( int64_t sub = 1; sub <= kb; sub++ )
			{
				const int64_t      ext = h * ( kb - sub );
				hyb_stencil_step_t cp =
				    hyb_sb_step( HYB_SS_COMPUTE, S + slot, slot, hyb_sb_max( z0 - ext, 0 ),
				                 hyb_sb_min( z1 + ext, n ), lo, t + sub, i, blk );
				if ( in->residual && t + sub == in->steps )
				{
					cp.flags = HYB_SS_RESIDUAL;
					cp.own0  = z0;
					cp.own1  = z1;
				}
				hyb_sb_emit( b, cp, NULL, 0 );
			}
			int64_t   dl[2];
			const int ndl = hyb_sb_chunk_out( b, slot, lo, i, blk, t + kb, out_idx, !to_final, dl );
			/* The previous chunk's older level may replace t-1 only now that
			   this chunk, whose recomputation would read it, is finished. */
			if ( two && in->restartable && i >= 1 && i - 1 >= c0 )
				hyb_sb_commit_old( b, i - 1, blk, prev_idx, dl, ndl );
		}
		if ( to_final && b->err == HYB_OK ) hyb_sb_late_out( b, d - 1, blk, hk, t + kb, in_idx );
		if ( two && in->restartable )
			hyb_sb_commit_old( b, d - 1, blk, prev_idx, NULL, 0 );
		else if ( two && b->err == HYB_OK )
			hyb_sb_late_out( b, d - 1, blk, hk, t + kb - 1, prev_idx );
	}
	/* Copying or restartable, the newest level ends in the second state
	   field after an odd number of blocks: copy it into place (the last
	   commit is in). */
	if ( in->block_end == s->blocks && s->blocks % 2 == 1 && !direct_final && b->err == HYB_OK )
	{
		hyb_stencil_step_t hc =
		    hyb_sb_step( HYB_SS_HOSTCOPY, 2 * S + 1, 0, 0, n, 0, in->steps, -1, s->blocks - 1 );
		hc.src[0] = (int8_t)( two ? 2 : 1 );
		hc.field  = (int8_t)( two ? 1 : 0 );
		hyb_sb_emit( b, hc, NULL, 0 );
	}
}

/* ------------------------------------------------------------------ in core */

/* Downloads of piece j after its last step; appended to dl. */
static void hyb_sb_piece_out( hyb_sb_t* b, int32_t j, int64_t* dl, int* ndl )
{
	hyb_stencil_sched_t* s   = b->s;
	const int            two = s->in.inputs == 2;
	hyb_stencil_step_t   st =
	    hyb_sb_step( HYB_SS_DOWNLOAD, 2, 0, s->zb[j], s->zb[j + 1], 0, s->in.steps, j, 0 );
	st.field       = (int8_t)( two ? 2 : 1 );
	dl[( *ndl )++] = hyb_sb_emit( b, st, NULL, 0 );
	if ( two )
	{
		st.level       = s->in.steps - 1;
		st.field       = -1;
		st.part        = 1;
		dl[( *ndl )++] = hyb_sb_emit( b, st, NULL, 0 );
	}
}

static void hyb_sb_in_core( hyb_sb_t* b )
{
	hyb_stencil_sched_t*          s   = b->s;
	const hyb_stencil_sched_in_t* in  = &s->in;
	const int32_t                 d   = in->d;
	const int64_t                 T   = in->steps;
	const int                     two = in->inputs == 2;
	if ( T == 0 ) return;
	const int64_t C = in->cone > 0 ? hyb_sb_min( in->cone, T ) : hyb_sb_min( T, d );
	/* A piece's step needs the previous level of w pieces either side. */
	const int64_t minp = in->n / d;
	const int64_t w    = ( in->h + minp - 1 ) / minp;
	int64_t*      dl   = malloc( (size_t)( 2 * d ) * sizeof *dl );
	int           ndl  = 0;
	if ( dl == NULL )
	{
		b->err = HYB_E_NO_MEMORY;
		return;
	}
	for ( int64_t r = 0; r < d + C * w && b->err == HYB_OK; r++ )
	{
		if ( r < d )
		{
			hyb_stencil_step_t up =
			    hyb_sb_step( HYB_SS_UPLOAD, 0, 0, s->zb[r], s->zb[r + 1], 0, 0, (int32_t)r, 0 );
			up.src[0] = (int8_t)( two ? 1 : 0 );
			up.src[1] = (int8_t)( two ? 0 : -1 );
			hyb_sb_emit( b, up, NULL, 0 );
		}
		for ( int64_t lv = 1; lv <= C; lv++ )
		{
			const int64_t j = r - lv * w;
			if ( j < 0 || j >= d ) continue;
			hyb_stencil_step_t cp =
			    hyb_sb_step( HYB_SS_COMPUTE, 1, 0, s->zb[j], s->zb[j + 1], 0, lv, (int32_t)j, 0 );
			if ( in->residual && lv == T )
			{
				cp.flags = HYB_SS_RESIDUAL;
				cp.own0  = cp.z0;
				cp.own1  = cp.z1;
			}
			hyb_sb_emit( b, cp, NULL, 0 );
			if ( lv == T ) hyb_sb_piece_out( b, (int32_t)j, dl, &ndl );
		}
	}
	for ( int64_t lv = C + 1; lv < T; lv++ )
		hyb_sb_emit( b, hyb_sb_step( HYB_SS_COMPUTE, 1, 0, 0, in->n, 0, lv, -1, 0 ), NULL, 0 );
	if ( T > C )
		for ( int32_t j = 0; j < d; j++ )
		{
			hyb_stencil_step_t cp =
			    hyb_sb_step( HYB_SS_COMPUTE, 1, 0, s->zb[j], s->zb[j + 1], 0, T, j, 0 );
			if ( in->residual )
			{
				cp.flags = HYB_SS_RESIDUAL;
				cp.own0  = cp.z0;
				cp.own1  = cp.z1;
			}
			hyb_sb_emit( b, cp, NULL, 0 );
			hyb_sb_piece_out( b, j, dl, &ndl );
		}
	/* Into place once every download is in: until then the inputs stay
	   intact, so that a failure can restart the run on the CPU. */
	if ( two )
	{
		hyb_stencil_step_t c = hyb_sb_step( HYB_SS_COMMIT, 3, 0, 0, in->n, 0, T - 1, -1, 0 );
		c.field              = 0;
		c.part               = 1;
		hyb_sb_emit( b, c, dl, ndl );
	}
	hyb_stencil_step_t hc = hyb_sb_step( HYB_SS_HOSTCOPY, 3, 0, 0, in->n, 0, T, -1, 0 );
	hc.src[0]             = (int8_t)( two ? 2 : 1 );
	hc.field              = (int8_t)( two ? 1 : 0 );
	hyb_sb_emit( b, hc, dl, ndl );
	free( dl );
}

/* ------------------------------------------------------------------ entry */

static int hyb_sb_valid( const hyb_stencil_sched_in_t* in )
{
	if ( in->n < 1 || in->h < 1 || in->d < 1 || in->d > in->n || in->steps < 0 ) return 0;
	if ( in->ncoef < 0 || in->ncoef > 12 ) return 0;
	if ( !( ( in->levels == 3 && in->inputs == 2 ) || ( in->levels == 2 && in->inputs == 1 ) ) )
		return 0;
	/* Several quantities only with one input level (no older level through
	   staging-out). */
	if ( in->quants < 0 || in->quants > 2 || ( in->quants > 1 && in->inputs != 1 ) ) return 0;
	if ( in->scheme == HYB_STENCIL_SCH_IN_CORE )
		return in->cone >= 0 && in->block_begin == 0 && in->block_end == 0 &&
		       in->first_chunk == 0 && in->pending_commit == 0;
	if ( in->scheme != HYB_STENCIL_SCH_COPY && in->scheme != HYB_STENCIL_SCH_DIRECT &&
	     in->scheme != HYB_STENCIL_SCH_SHARED )
		return 0;
	if ( in->k < 1 || in->slots < 0 || ( in->slots > 0 && in->slots < 3 && in->slots < in->d ) ||
	     in->slots > HYB_SS_SLOTS_MAX )
		return 0;
	/* Every chunk at least as deep as a full block's halo. */
	const int64_t keff = in->steps > 0 ? hyb_sb_min( in->k, in->steps ) : in->k;
	if ( in->align < 0 || in->align > 64 ) return 0;
	if ( in->align > 1 && in->d > ( in->n + in->align - 1 ) / in->align ) return 0;
	if ( in->d > 1 )
	{
		/* The last chunk is the shallowest. */
		int64_t* zb = malloc( (size_t)( in->d + 1 ) * sizeof *zb );
		if ( zb == NULL ) return 0;
		hyb_stencil_split_aligned( in->n, in->d, in->align, zb );
		int64_t least = in->n;
		for ( int32_t i = 0; i < in->d; i++ ) least = hyb_sb_min( least, zb[i + 1] - zb[i] );
		free( zb );
		if ( least < hyb_stencil_halo( in->h, keff, in->align ) ) return 0;
	}
	if ( in->first_chunk < 0 || in->first_chunk >= in->d ) return 0;
	/* Resuming inside a block needs the inputs of its unfinished chunks,
	   which only a restartable schedule leaves in place (the older level,
	   and the last block's newest level, overwrite them otherwise). */
	if ( !in->restartable && ( in->first_chunk > 0 || in->pending_commit > 0 ) ) return 0;
	return in->pending_commit >= 0 && in->pending_commit <= in->first_chunk;
}

void hyb_stencil_sched_free( hyb_stencil_sched_t* s )
{
	if ( s == NULL ) return;
	free( s->zb );
	free( s->steps );
	free( s->deps );
	memset( s, 0, sizeof *s );
}

hyb_status_t hyb_stencil_sched_build( const hyb_stencil_sched_in_t* in, hyb_stencil_sched_t* out )
{
	if ( in == NULL || out == NULL || !hyb_sb_valid( in ) ) return HYB_E_INVALID;
	hyb_stencil_sched_t s;
	memset( &s, 0, sizeof s );
	s.in          = *in;
	const int ooc = in->scheme != HYB_STENCIL_SCH_IN_CORE;
	if ( ooc )
	{
		const int64_t keff = in->steps > 0 ? hyb_sb_min( in->k, in->steps ) : in->k;
		s.in.k             = (int32_t)keff;
		s.blocks           = in->steps > 0 ? ( in->steps + keff - 1 ) / keff : 0;
		if ( s.in.block_end == 0 ) s.in.block_end = s.blocks;
		if ( s.in.block_begin < 0 || s.in.block_begin > s.in.block_end ||
		     s.in.block_end > s.blocks )
			return HYB_E_INVALID;
	}
	else
		s.blocks = in->steps > 0 ? 1 : 0;
	s.zb = malloc( (size_t)( in->d + 1 ) * sizeof *s.zb );
	if ( s.zb == NULL ) return HYB_E_NO_MEMORY;
	hyb_stencil_split_aligned( in->n, in->d, ooc ? in->align : 1, s.zb );

	int64_t planes[HYB_SR_COUNT] = { 0 };
	if ( ooc )
	{
		const int64_t hk = hyb_stencil_halo( in->h, s.in.k, in->align );
		const int32_t S  = in->slots > 0 && in->slots <= HYB_SS_SLOTS_MAX ? in->slots : 3;
		s.nslots         = in->d < S ? in->d : S;
		for ( int32_t i = 0; i < in->d; i++ )
		{
			const int64_t len =
			    hyb_sb_min( s.zb[i + 1] + hk, in->n ) - hyb_sb_max( s.zb[i] - hk, 0 );
			s.slot_planes = hyb_sb_max( s.slot_planes, len );
		}
		s.stage_in     = in->scheme == HYB_STENCIL_SCH_COPY;
		s.stage_planes = ( s.stage_in || hyb_sb_old_staged( &s ) ) ? s.zb[1] - s.zb[0] : 0;
		s.nstreams     = 2 * s.nslots + 2;
		for ( int i = 0; i < s.nslots; i++ )
		{
			s.queue[i]            = HYB_SQ_COPY;
			s.queue[s.nslots + i] = HYB_SQ_COMPUTE;
		}
		s.queue[2 * s.nslots] = s.queue[2 * s.nslots + 1] = HYB_SQ_HOST;
	}
	else
	{
		s.nslots       = 1;
		s.slot_planes  = in->n;
		s.stage_planes = in->inputs == 2 ? in->n : 0;
		s.nstreams     = 4;
		s.queue[0]     = HYB_SQ_COPY;
		s.queue[1]     = HYB_SQ_COMPUTE;
		s.queue[2]     = HYB_SQ_D2H;
		s.queue[3]     = HYB_SQ_HOST;
	}
	for ( int j = 0; j <= in->inputs; j++ ) planes[j] = in->n;
	for ( int i = 0; i < s.nslots; i++ )
	{
		planes[HYB_SR_SLOT + i] = s.slot_planes;
		planes[HYB_SR_SIN + i]  = s.stage_in ? s.slot_planes : 0;
		planes[HYB_SR_SOUT + i] = s.stage_planes;
	}

	hyb_sb_t b;
	memset( &b, 0, sizeof b );
	b.s   = &s;
	b.err = hyb_stencil_track_init( &b.track, planes );
	if ( b.err == HYB_OK )
	{
		if ( ooc )
			hyb_sb_out_of_core( &b );
		else
			hyb_sb_in_core( &b );
	}
	hyb_stencil_track_free( &b.track );
	free( b.mark );
	if ( b.err != HYB_OK )
	{
		hyb_stencil_sched_free( &s );
		return b.err;
	}
	*out = s;
	return HYB_OK;
}
