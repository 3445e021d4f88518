/* SPDX-License-Identifier: BSD-3-Clause */
/* The face-loop family's device driver: buffers carved from the context's workspace, the
   mesh and tables uploaded once per run, then per stage either the face kernel between a
   state upload and an output download (the host runs the other loops) or all four kernels
   on the device; every failure leaves the solver as it was. */
#include "dispatch/faceloop/hyb_faceloop_device.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hyb_types.h"
#include "kernels/faceloop/hyb_faceloop_cpu.h"
#include "kernels/faceloop/hyb_faceloop_kernels.h"

/* Every buffer starts on this boundary (coalesced loads, any element type). */
#define HYB_FL_DEV_ALIGN 256u

/* The one stream the driver uses: copies and kernels in order, no events needed between
   them. */
#define HYB_FL_STREAM HYB_STREAM_COMPUTE

/* Device buffers of a run (NULL where the workflow does not need them). */
typedef struct
{
	int32_t*         face_cell;
	int8_t*          face_edge;
	double*          face_geom;
	int32_t*         remap;
	hyb_fl_tables_t* tab;
	double*          out;
	double *         u, *u1, *u2, *rhs; /* per step: only u */
	int32_t*         cell_face;
	double *         cell_xy, *cell_invdet, *minv;
	int32_t*         cell_minv;
} fl_dbuf_t;

/* One buffer of `bytes` at the next aligned offset. */
static void* carve( char* base, size_t* off, size_t bytes )
{
	void* p = base ? base + *off : NULL;
	*off += ( bytes + HYB_FL_DEV_ALIGN - 1 ) / HYB_FL_DEV_ALIGN * HYB_FL_DEV_ALIGN;
	return p;
}

/* Bilinear cells: one inverse mass matrix each. */
static int64_t bilinear_cells( const hyblas_faceloop_solver_t* s )
{
	int64_t n = 0;
	for ( int64_t c = 0; c < s->mesh->n_cells; c++ )
		if ( s->cell_minv[c] >= 0 && s->cell_minv[c] + 1 > n ) n = s->cell_minv[c] + 1;
	return n;
}

/* Lay the buffers out from base (NULL: only measure); returns the bytes. */
static size_t layout( const hyblas_faceloop_solver_t* s, const hyb_fl_dev_req_t* q, char* base,
                      fl_dbuf_t* b )
{
	const hyblas_faceloop_mesh_t* m = s->mesh;
	const size_t nf = (size_t)m->n_faces, nc = (size_t)m->n_cells, np = (size_t)s->np;
	const size_t nv  = (size_t)m->nv;
	size_t       off = 0;
	memset( b, 0, sizeof *b );
	b->face_cell = carve( base, &off, 2 * nf * sizeof( int32_t ) );
	b->face_edge = carve( base, &off, 2 * nf * sizeof( int8_t ) );
	b->face_geom = carve( base, &off, HYB_FL_GEOM_COUNT * nf * sizeof( double ) );
	if ( q->remapped || q->lowreg ) b->remap = carve( base, &off, nf * sizeof( int32_t ) );
	b->tab = carve( base, &off, sizeof( hyb_fl_tables_t ) );
	b->out = carve( base, &off, 2 * np * nf * sizeof( double ) );
	b->u   = carve( base, &off, nc * np * sizeof( double ) );
	if ( !q->resident ) return off;
	b->u1            = carve( base, &off, nc * np * sizeof( double ) );
	b->u2            = carve( base, &off, nc * np * sizeof( double ) );
	b->rhs           = carve( base, &off, nc * np * sizeof( double ) );
	b->cell_face     = carve( base, &off, nv * nc * sizeof( int32_t ) );
	b->cell_xy       = carve( base, &off, 2 * nv * nc * sizeof( double ) );
	b->cell_invdet   = carve( base, &off, nc * sizeof( double ) );
	b->cell_minv     = carve( base, &off, nc * sizeof( int32_t ) );
	const int64_t nb = bilinear_cells( s );
	b->minv = carve( base, &off, (size_t)( nb > 0 ? nb : 1 ) * np * np * sizeof( double ) );
	return off;
}

/* Stages in flight whose face and gather times are still to be read. */
#define HYB_FL_RING 4

/* The state of a driver run: context, buffers, staging, counters. */
typedef struct
{
	hyblas_faceloop_solver_t* s;
	const hyb_fl_dev_req_t*   q;
	hyb_dev_t*                d;
	fl_dbuf_t                 b;
	double*                   stage_u;   /* pinned: the state going up or coming down */
	double*                   stage_out; /* pinned: the face output coming down (per step) */
	/* Per slot: before and after the face kernel, after the gather. The resident run times
	   every stage through HYB_FL_RING slots (a slot is read back before it is reused, so the
	   device stays that many stages ahead of the host); the per-step run uses slot 0. */
	hyb_devent_t*     ring[HYB_FL_RING][3];
	hyb_devent_t*     done;   /* copies done */
	int               pinned; /* resident: the solver's state is page-locked (pin_state) */
	hyb_fl_dev_out_t* o;
} fl_run_t;

static hyb_status_t up( fl_run_t* r, void* dst, const void* src, size_t bytes )
{
	if ( bytes == 0 ) return HYB_OK;
	r->o->bytes_h2d += (int64_t)bytes;
	return hyb_dev_h2d( r->d, HYB_FL_STREAM, dst, bytes, src, bytes, bytes, 1 );
}

static hyb_status_t down( fl_run_t* r, void* dst, const void* src, size_t bytes )
{
	if ( bytes == 0 ) return HYB_OK;
	r->o->bytes_d2h += (int64_t)bytes;
	return hyb_dev_d2h( r->d, HYB_FL_STREAM, dst, bytes, src, bytes, bytes, 1 );
}

/* The state goes up through the page-locked staging in pieces, so that the host's copy of
   one piece into staging overlaps the transfer of the one before (the staging holds the
   whole state: no piece waits for another's slot). */
#define HYB_FL_TRIP_PIECES 8

static hyb_status_t up_state( fl_run_t* r, double* dst, const double* src, size_t n )
{
	const int    thr   = r->q->threads > 0 ? r->q->threads : 1;
	const size_t piece = ( n + HYB_FL_TRIP_PIECES - 1 ) / HYB_FL_TRIP_PIECES;
	hyb_status_t st    = HYB_OK;
	for ( size_t a = 0; a < n && st == HYB_OK; a += piece )
	{
		const size_t len = n - a < piece ? n - a : piece;
		const double tc  = hyb_now();
		hyb_faceloop_copy_cpu( r->stage_u + a, src + a, (int64_t)len, thr );
		r->o->trip_copy_s += hyb_now() - tc;
		st = up( r, dst + a, r->stage_u + a, len * sizeof( double ) );
	}
	return st;
}

/* The state of a resident run crosses PCIe straight from the solver's arrays: at the
   solver's first resident run its state moves into a page-locked array, beside a second one
   of the same size, u_next, and both stay locked until the solver is destroyed. The state
   goes up from u and comes down into u_next, which becomes u once the download is complete
   and synchronised (so a failure still leaves the solver as it was). No host copy is on the
   trip: a copy into the context's staging runs on the program's OpenMP team beside the
   transfers, where it can stall (docs/faceloop.md). Both arrays are page-aligned and whole
   pages: a registration may not share a page with another one, the program's own
   included. */
static int pin_state( fl_run_t* r )
{
	hyblas_faceloop_solver_t* s = r->s;
	if ( s->pin != HYB_FL_PIN_UNTRIED ) return s->pin == HYB_FL_PIN_LOCKED;
	const double t0    = hyb_now();
	const size_t bytes = (size_t)( s->mesh->n_cells * s->np ) * sizeof( double );
	const long   pg    = sysconf( _SC_PAGESIZE );
	const size_t page  = pg > 0 ? (size_t)pg : 4096;
	const size_t whole = ( bytes + page - 1 ) / page * page;
	void *       cur = NULL, *next = NULL;
	s->pin = HYB_FL_PIN_NEVER;
	const int made =
	    posix_memalign( &cur, page, whole ) == 0 && posix_memalign( &next, page, whole ) == 0;
	const int cur_locked = made && hyb_dev_register( r->d, cur, whole ) == HYB_OK;
	if ( cur_locked && hyb_dev_register( r->d, next, whole ) == HYB_OK )
	{
		memcpy( cur, s->u, bytes );
		free( s->u );
		s->u      = cur;
		s->u_next = next;
		s->pin    = HYB_FL_PIN_LOCKED;
	}
	else
	{
		if ( cur_locked ) hyb_dev_unregister( r->d, cur );
		free( cur );
		free( next );
	}
	r->o->pin_s = hyb_now() - t0;
	return s->pin == HYB_FL_PIN_LOCKED;
}

void hyb_fl_device_unpin( hyblas_faceloop_solver_t* s )
{
	hyb_dev_t* d = NULL;
	if ( s->pin == HYB_FL_PIN_LOCKED && hyb_dev_acquire( 0, &d ) == HYB_OK )
	{
		hyb_dev_unregister( d, s->u );
		hyb_dev_unregister( d, s->u_next );
		hyb_dev_release( d );
	}
	s->pin = HYB_FL_PIN_UNTRIED;
}

/* The mesh, the tables and (resident) the cells' data go up once. */
static hyb_status_t upload_mesh( fl_run_t* r )
{
	const hyblas_faceloop_solver_t* s = r->s;
	const hyblas_faceloop_mesh_t*   m = s->mesh;
	const size_t nf = (size_t)m->n_faces, nc = (size_t)m->n_cells, np = (size_t)s->np;
	const size_t nv = (size_t)m->nv;
	hyb_status_t st;
	if ( ( st = up( r, r->b.face_cell, m->face_cell, 2 * nf * sizeof( int32_t ) ) ) != HYB_OK ||
	     ( st = up( r, r->b.face_edge, m->face_edge, 2 * nf * sizeof( int8_t ) ) ) != HYB_OK ||
	     ( st = up( r, r->b.face_geom, m->face_geom,
	                HYB_FL_GEOM_COUNT * nf * sizeof( double ) ) ) != HYB_OK ||
	     ( st = up( r, r->b.tab, &s->tab, sizeof s->tab ) ) != HYB_OK )
		return st;
	if ( r->b.remap && ( st = up( r, r->b.remap, m->remap, nf * sizeof( int32_t ) ) ) != HYB_OK )
		return st;
	if ( !r->q->resident ) return HYB_OK;
	const int64_t nb = bilinear_cells( s );
	if ( ( st = up( r, r->b.cell_face, m->cell_face, nv * nc * sizeof( int32_t ) ) ) != HYB_OK ||
	     ( st = up( r, r->b.cell_xy, s->cell_xy, 2 * nv * nc * sizeof( double ) ) ) != HYB_OK ||
	     ( st = up( r, r->b.cell_invdet, s->cell_invdet, nc * sizeof( double ) ) ) != HYB_OK ||
	     ( st = up( r, r->b.cell_minv, s->cell_minv, nc * sizeof( int32_t ) ) ) != HYB_OK ||
	     ( st = up( r, r->b.minv, s->minv, (size_t)nb * np * np * sizeof( double ) ) ) != HYB_OK )
		return st;
	return HYB_OK;
}

/* A face loop's argument block (state, order and output already device buffers) moved onto
   the device's mesh and tables. */
static void face_on_device( const fl_run_t* r, hyb_faceloop_face_args_t* a )
{
	a->face_cell = r->b.face_cell;
	a->face_edge = r->b.face_edge;
	a->face_geom = r->b.face_geom;
	a->edge_t    = r->b.tab->edge_t;
	a->edge_w    = r->b.tab->edge_w;
	a->edge_phi  = r->b.tab->edge_phi;
	a->block     = r->q->block;
}

/* Elapsed seconds between two recorded events, 0 where the backend cannot say. */
static double elapsed( hyb_dev_t* d, hyb_devent_t* a, hyb_devent_t* b )
{
	double t = 0.0;
	return hyb_dev_elapsed( d, a, b, &t ) == HYB_OK && t > 0.0 ? t : 0.0;
}

/* The seed's workflow: per stage the state goes up, the face kernel runs, its output comes
   down while the host runs the volume loop; then the host gathers and updates. */
static hyb_status_t run_per_step( fl_run_t* r, int64_t steps )
{
	hyb_devent_t *const e0 = r->ring[0][0], *const e1 = r->ring[0][1], *const done = r->done;
	hyblas_faceloop_solver_t* s   = r->s;
	const int                 thr = r->q->threads > 0 ? r->q->threads : 1;
	const int64_t             nf  = s->mesh->n_faces;
	const size_t nu = (size_t)( s->mesh->n_cells * s->np ), no = (size_t)( 2 * s->np ) * (size_t)nf;
	double* const state[3] = { s->u, s->u1, s->u2 };
	hyb_status_t  st;
	for ( int64_t n = 0; n < steps; n++ )
		for ( int k = 0; k < 3; k++ )
		{
			const double t0 = hyb_now();
			/* The face loop reads the stage's state from the device and writes its output
			   there, component-major (component k of face f at out[k nf + f]: a warp writes
			   coalesced); the output comes down for the host's gather. */
			hyb_fl_stage_args_t g;
			hyb_fl_stage_args( s, k, s->time, state, s->rhs, r->b.remap, r->stage_out, nf, 1, &g );
			g.face.u   = r->b.u;
			g.face.out = r->b.out;
			face_on_device( r, &g.face );
			if ( ( st = up_state( r, r->b.u, state[k], nu ) ) != HYB_OK ||
			     ( st = hyb_dev_record( r->d, HYB_FL_STREAM, e0 ) ) != HYB_OK ||
			     ( st = hyb_dev_faceloop_face( r->d, HYB_FL_STREAM, r->q->lowreg, &g.face ) ) !=
			         HYB_OK ||
			     ( st = hyb_dev_record( r->d, HYB_FL_STREAM, e1 ) ) != HYB_OK ||
			     ( st = down( r, r->stage_out, r->b.out, no * sizeof( double ) ) ) != HYB_OK ||
			     ( st = hyb_dev_record( r->d, HYB_FL_STREAM, done ) ) != HYB_OK )
				return st;
			/* The host's volume loop overlaps the device's work. */
			const double t1 = hyb_now();
			hyb_faceloop_volume_cpu( &g.volume, thr );
			const double t2 = hyb_now();
			if ( ( st = hyb_dev_sync_polled( r->d, done ) ) != HYB_OK ) return st;
			hyb_faceloop_gather_cpu( &g.gather, thr );
			const double t3 = hyb_now();
			hyb_faceloop_update_cpu( &g.update, thr );
			const double t4 = hyb_now();
			r->o->face_s += elapsed( r->d, e0, e1 );
			r->o->face_e2e_s += ( t3 - t0 ) - ( t2 - t1 );
			r->o->volume_s += t2 - t1;
			r->o->update_s += t4 - t3;
			if ( k == 2 ) s->time = s->time + s->dt; /* as the CPU steps advance it */
		}
	return HYB_OK;
}

/* Add the face and gather times of the stage in ring slot j (waits for it). */
static hyb_status_t read_slot( fl_run_t* r, int j )
{
	hyb_devent_t* const* e  = r->ring[j];
	hyb_status_t         st = hyb_dev_sync( r->d, e[2] );
	if ( st != HYB_OK ) return st;
	r->o->face_s += elapsed( r->d, e[0], e[1] );
	r->o->face_e2e_s += elapsed( r->d, e[0], e[2] );
	return HYB_OK;
}

/* Everything on the device: per stage volume, face, gather and update kernels on one
   stream; the state goes up once and comes down once (pin_state says where from and to). The face
   loop's end-to-end time is what the host's face loop and gather stand for: the face and gather
   kernels of every stage, plus the state's one trip up and down (staging copy, transfer),
   which the volume and update loops share but which is counted here in full. */
static hyb_status_t run_resident( fl_run_t* r, int64_t steps )
{
	hyb_devent_t* const       done     = r->done;
	hyblas_faceloop_solver_t* s        = r->s;
	const size_t              nu       = (size_t)( s->mesh->n_cells * s->np );
	const int64_t             nf       = s->mesh->n_faces;
	double* const             state[3] = { r->b.u, r->b.u1, r->b.u2 };
	hyb_status_t              st;
	const int                 thr    = r->q->threads > 0 ? r->q->threads : 1;
	const int                 pinned = r->pinned;
	const double              t0     = hyb_now();
	if ( ( st = pinned ? up( r, r->b.u, s->u, nu * sizeof( double ) )
	                   : up_state( r, r->b.u, s->u, nu ) ) != HYB_OK ||
	     ( st = hyb_dev_record( r->d, HYB_FL_STREAM, done ) ) != HYB_OK ||
	     ( st = hyb_dev_sync_polled( r->d, done ) ) != HYB_OK )
		return st;
	double trip     = hyb_now() - t0; /* the state up and (below) down, host-timed */
	r->o->trip_up_s = trip;
	double  time    = s->time;
	int64_t stage   = 0;
	for ( int64_t n = 0; n < steps; n++ )
	{
		for ( int k = 0; k < 3; k++, stage++ )
		{
			/* Every block on the device's buffers, the face loop's output component-major. */
			hyb_fl_stage_args_t g;
			hyb_fl_stage_args( s, k, time, state, r->b.rhs, r->b.remap, r->b.out, nf, 1, &g );
			g.volume.cell_xy  = r->b.cell_xy;
			g.volume.vol_w    = r->b.tab->vol_w;
			g.volume.vol_xi   = r->b.tab->vol_xi;
			g.volume.vol_phi  = r->b.tab->vol_phi;
			g.volume.vol_dphi = r->b.tab->vol_dphi;
			g.volume.block    = r->q->block;
			face_on_device( r, &g.face );
			g.gather.cell_face     = r->b.cell_face;
			g.gather.block         = r->q->block;
			g.update.cell_invdet   = r->b.cell_invdet;
			g.update.cell_minv     = r->b.cell_minv;
			g.update.minv          = r->b.minv;
			g.update.block         = r->q->block;
			const int            j = (int)( stage % HYB_FL_RING );
			hyb_devent_t* const* e = r->ring[j];
			if ( ( stage >= HYB_FL_RING && ( st = read_slot( r, j ) ) != HYB_OK ) ||
			     ( st = hyb_dev_faceloop_volume( r->d, HYB_FL_STREAM, &g.volume ) ) != HYB_OK ||
			     ( st = hyb_dev_record( r->d, HYB_FL_STREAM, e[0] ) ) != HYB_OK ||
			     ( st = hyb_dev_faceloop_face( r->d, HYB_FL_STREAM, r->q->lowreg, &g.face ) ) !=
			         HYB_OK ||
			     ( st = hyb_dev_record( r->d, HYB_FL_STREAM, e[1] ) ) != HYB_OK ||
			     ( st = hyb_dev_faceloop_gather( r->d, HYB_FL_STREAM, &g.gather ) ) != HYB_OK ||
			     ( st = hyb_dev_record( r->d, HYB_FL_STREAM, e[2] ) ) != HYB_OK ||
			     ( st = hyb_dev_faceloop_update( r->d, HYB_FL_STREAM, &g.update ) ) != HYB_OK )
				return st;
		}
		time = time + s->dt;
	}
	for ( int64_t q = stage > HYB_FL_RING ? stage - HYB_FL_RING : 0; q < stage; q++ )
		if ( ( st = read_slot( r, (int)( q % HYB_FL_RING ) ) ) != HYB_OK ) return st;
	const double t1   = hyb_now();
	double*      land = pinned ? s->u_next : r->stage_u;
	if ( ( st = down( r, land, r->b.u, nu * sizeof( double ) ) ) != HYB_OK ||
	     ( st = hyb_dev_record( r->d, HYB_FL_STREAM, done ) ) != HYB_OK ||
	     ( st = hyb_dev_sync_polled( r->d, done ) ) != HYB_OK )
		return st;
	/* Only a complete, synchronised result reaches the solver. */
	if ( pinned )
	{
		s->u_next = s->u;
		s->u      = land;
	}
	else
	{
		const double tc = hyb_now();
		hyb_faceloop_copy_cpu( s->u, r->stage_u, (int64_t)nu, thr );
		r->o->trip_copy_s += hyb_now() - tc;
	}
	s->time = time;
	trip += hyb_now() - t1;
	r->o->trip_s = trip;
	r->o->face_e2e_s += trip;
	return HYB_OK;
}

hyb_status_t hyb_fl_device_steps( hyblas_faceloop_solver_t* s, int64_t steps,
                                  const hyb_fl_dev_req_t* q, hyb_fl_dev_out_t* o )
{
	memset( o, 0, sizeof *o );
	if ( steps == 0 ) return HYB_OK;
	if ( !hyb_faceloop_kernels_supported() ) return HYB_E_NOT_SUPPORTED;
	const size_t nu = (size_t)( s->mesh->n_cells * s->np );
	/* The per-step workflow updates the solver's state on the host stage by stage: keep the
	   entry state so that a failure can put it back. */
	double* keep = NULL;
	if ( !q->resident )
	{
		keep = malloc( nu * sizeof *keep );
		if ( keep == NULL ) return HYB_E_NO_MEMORY;
		memcpy( keep, s->u, nu * sizeof *keep );
	}
	const double  time0 = s->time;
	const int64_t done0 = s->steps_done;
	fl_run_t      r;
	memset( &r, 0, sizeof r );
	r.s             = s;
	r.q             = q;
	r.o             = o;
	void*        ws = NULL;
	void*        hs = NULL;
	const size_t no = (size_t)( 2 * s->np ) * (size_t)s->mesh->n_faces;
	hyb_status_t st = hyb_dev_acquire( 0, &r.d );
	if ( st != HYB_OK )
	{
		free( keep );
		return st;
	}
	r.pinned              = q->resident && pin_state( &r );
	const size_t hs_bytes = ( ( r.pinned ? 0 : nu ) + ( q->resident ? 0 : no ) ) * sizeof( double );
	const size_t ws_bytes = layout( s, q, NULL, &r.b );
	if ( ( st = hyb_dev_workspace( r.d, ws_bytes, &ws ) ) == HYB_OK &&
	     ( hs_bytes == 0 || ( st = hyb_dev_staging( r.d, hs_bytes, &hs ) ) == HYB_OK ) &&
	     ( st = hyb_dev_event_create( r.d, &r.done ) ) == HYB_OK )
	{
		for ( int j = 0; j < HYB_FL_RING && st == HYB_OK; j++ )
			for ( int k = 0; k < 3 && st == HYB_OK; k++ )
				st = hyb_dev_event_create( r.d, &r.ring[j][k] );
	}
	if ( st == HYB_OK )
	{
		layout( s, q, ws, &r.b );
		r.stage_u   = hs;
		r.stage_out = r.stage_u ? r.stage_u + nu : NULL;
		/* The mesh's upload is the run's set-up, timed on its own: the face loop's time
		   starts when it is on the device. */
		const double t0 = hyb_now();
		if ( ( st = upload_mesh( &r ) ) == HYB_OK &&
		     ( st = hyb_dev_record( r.d, HYB_FL_STREAM, r.done ) ) == HYB_OK &&
		     ( st = hyb_dev_sync( r.d, r.done ) ) == HYB_OK )
		{
			o->mesh_s = hyb_now() - t0;
			st        = q->resident ? run_resident( &r, steps ) : run_per_step( &r, steps );
		}
	}
	/* Nothing may still be reading or writing the staging when the CPU takes over. */
	for ( int k = 0; k < HYB_DEV_STREAMS; k++ ) hyb_dev_stream_sync( r.d, k );
	for ( int j = 0; j < HYB_FL_RING; j++ )
		for ( int k = 0; k < 3; k++ )
			if ( r.ring[j][k] ) hyb_dev_event_destroy( r.d, r.ring[j][k] );
	if ( r.done ) hyb_dev_event_destroy( r.d, r.done );
	hyb_dev_release( r.d );
	if ( st == HYB_OK )
	{
		s->steps_done = done0 + steps;
	}
	else
	{
		if ( keep ) memcpy( s->u, keep, nu * sizeof *keep );
		s->time       = time0;
		s->steps_done = done0;
	}
	free( keep );
	return st;
}
