/* SPDX-License-Identifier: BSD-3-Clause */
/* The checks every face-loop launcher makes on its argument block before it queues work
   (sizes in range, pointers present), shared by the simulated and the CUDA launchers. */
#ifndef HYB_FACELOOP_CHECK_H
#define HYB_FACELOOP_CHECK_H

#include <stddef.h>

#include "kernels/faceloop/hyb_faceloop_kargs.h"

/* The degree whose mode count on a cell of nv vertices is np (1 .. HYB_FL_P_MAX), or -1. */
static inline int hyb_fl_degree_of( int nv, int np )
{
	for ( int p = 1; p <= HYB_FL_P_MAX; p++ )
		if ( np == ( nv == 3 ? ( p + 1 ) * ( p + 2 ) / 2 : ( p + 1 ) * ( p + 1 ) ) ) return p;
	return -1;
}

static inline int hyb_fl_shape_ok( int nv, int np, int block )
{
	return ( nv == 3 || nv == 4 ) && hyb_fl_degree_of( nv, np ) > 0 && block >= 0 && block <= 1024;
}

/* Nonzero when the block can be launched (see hyb_faceloop_face_args_t). */
static inline int hyb_fl_face_args_ok( const hyb_faceloop_face_args_t* a )
{
	if ( a == NULL || !hyb_fl_shape_ok( a->nv, a->np, a->block ) ) return 0;
	if ( a->nq < 1 || a->nq > HYB_FL_NQ_MAX || a->n_faces < 0 ) return 0;
	if ( a->eq.kind != HYB_FL_EQ_ADVECTION && a->eq.kind != HYB_FL_EQ_BURGERS ) return 0;
	if ( a->idx == NULL && a->n_faces > a->n_faces_total ) return 0;
	if ( a->n_faces == 0 ) return 1;
	return a->face_cell && a->face_edge && a->face_geom && a->edge_t && a->edge_w && a->edge_phi &&
	       a->u && a->out && a->out_cstride > 0 && a->out_fstride > 0;
}

static inline int hyb_fl_volume_args_ok( const hyb_faceloop_volume_args_t* a )
{
	if ( a == NULL || !hyb_fl_shape_ok( a->nv, a->np, a->block ) ) return 0;
	if ( a->nqv < 1 || a->nqv > HYB_FL_NQV_MAX || a->n_cells < 0 ) return 0;
	if ( a->eq.kind != HYB_FL_EQ_ADVECTION && a->eq.kind != HYB_FL_EQ_BURGERS ) return 0;
	if ( a->n_cells == 0 ) return 1;
	return a->cell_xy && a->vol_w && a->vol_xi && a->vol_phi && a->vol_dphi && a->u && a->rhs;
}

static inline int hyb_fl_gather_args_ok( const hyb_faceloop_gather_args_t* a )
{
	if ( a == NULL || !hyb_fl_shape_ok( a->nv, a->np, a->block ) || a->n_cells < 0 ) return 0;
	if ( a->n_cells == 0 ) return 1;
	return a->cell_face && a->out && a->rhs && a->out_cstride > 0 && a->out_fstride > 0;
}

static inline int hyb_fl_update_args_ok( const hyb_faceloop_update_args_t* a )
{
	if ( a == NULL || a->np < 1 || a->np > HYB_FL_NP_MAX || a->n_cells < 0 ) return 0;
	if ( a->block < 0 || a->block > 1024 ) return 0;
	if ( a->n_cells == 0 ) return 1;
	return a->cell_invdet && a->cell_minv && a->rhs && a->u0 && a->cur && a->next &&
	       a->next != a->cur;
}

#endif
