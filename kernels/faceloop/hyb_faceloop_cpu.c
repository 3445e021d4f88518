/* SPDX-License-Identifier: BSD-3-Clause */
/* The face-loop solver's loops on the host: the serial reference and the OpenMP loop. */
#include "kernels/faceloop/hyb_faceloop_cpu.h"

#include "hyb_copy.h"
#include "kernels/faceloop/hyb_faceloop_elem.h"

/* The loop over n elements of one kernel: serial, or OpenMP with a static schedule. */
#define HYB_FL_CPU_LOOP( n, threads, body )                                                        \
	do {                                                                                           \
		if ( ( threads ) <= 1 )                                                                    \
		{                                                                                          \
			for ( int64_t e_ = 0; e_ < ( n ); e_++ ) body;                                         \
		}                                                                                          \
		else                                                                                       \
		{                                                                                          \
			_Pragma(                                                                               \
			    "omp parallel for schedule( static ) num_threads( threads )" ) for ( int64_t e_ =  \
			                                                                             0;        \
			                                                                         e_ < ( n );   \
			                                                                         e_++ ) body;  \
		}                                                                                          \
	} while ( 0 )

void hyb_faceloop_face_cpu( const hyb_faceloop_face_args_t* a, int threads )
{
	const int np = a->np, nq = a->nq, nv = a->nv, eqk = a->eq.kind;
	HYB_FL_CPU_LOOP( a->n_faces, threads,
	                 hyb_fl_face( a, a->idx ? a->idx[e_] : e_, np, nq, nv, eqk ) );
}

void hyb_faceloop_volume_cpu( const hyb_faceloop_volume_args_t* a, int threads )
{
	const int np = a->np, nqv = a->nqv, nv = a->nv, eqk = a->eq.kind;
	HYB_FL_CPU_LOOP( a->n_cells, threads, hyb_fl_volume( a, e_, np, nqv, nv, eqk ) );
}

void hyb_faceloop_gather_cpu( const hyb_faceloop_gather_args_t* a, int threads )
{
	const int np = a->np, nv = a->nv;
	HYB_FL_CPU_LOOP( a->n_cells, threads, hyb_fl_gather( a, e_, np, nv ) );
}

void hyb_faceloop_update_cpu( const hyb_faceloop_update_args_t* a, int threads )
{
	const int np = a->np;
	HYB_FL_CPU_LOOP( a->n_cells, threads, hyb_fl_update( a, e_, np ) );
}

void hyb_faceloop_copy_cpu( double* dst, const double* src, int64_t n, int threads )
{
	const size_t  bytes = (size_t)n * sizeof *dst, piece = (size_t)64 << 10;
	const int64_t pieces = (int64_t)( ( bytes + piece - 1 ) / piece );
	HYB_FL_CPU_LOOP( pieces, threads, hyb_copy_pieces( dst, src, bytes, piece, e_, e_ + 1 ) );
}
