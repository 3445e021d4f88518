/* SPDX-License-Identifier: BSD-3-Clause */
/* The face-loop family's mesh: validation of the caller's arrays, the faces (derived from
   the cells' edges, or the caller's list checked against them), their geometry and the
   partition of faces by kind. */
#include "dispatch/faceloop/hyb_faceloop_mesh.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_heap.h"
#include "kernels/faceloop/hyb_faceloop_kargs.h"
#include "kernels/faceloop/hyb_faceloop_partition.h"

/* A corner cross product or a cell's area below this fraction of its squared size counts
   as zero (degenerate); two periodic sides differ by less than this fraction of their
   length when they match. */
#define HYB_FL_TOL          1e-12
#define HYB_FL_PERIODIC_TOL 1e-9

static void fl_why( char* why, size_t len, const char* fmt, ... )
    __attribute__( ( format( printf, 3, 4 ) ) );

static void fl_why( char* why, size_t len, const char* fmt, ... )
{
	if ( why == NULL || len == 0 ) return;
	va_list ap;
	va_start( ap, fmt );
	vsnprintf( why, len, fmt, ap );
	va_end( ap );
}

/* The caller's arrays and the half-edges being matched: half-edge h = c * nv + e walks
   cell c's edge e from its vertex e to its vertex e + 1 (counterclockwise). */
typedef struct
{
	const hyblas_faceloop_mesh_desc_t* d;
	int                                nv;
	int64_t                            nh;
	int64_t* bucket;  /* n_vertices + 1: where each low vertex's half-edges start in slot */
	int32_t* slot;    /* nh: half-edges grouped by the lower canonical vertex of their edge */
	int32_t* partner; /* nh: the half-edge of the same edge in the other cell, or -1 */
	int32_t* face_of; /* nh: the face of each half-edge */
	int32_t* face_h;  /* faces: the half-edge of the left side */
} fl_build_t;

static int32_t canon( const fl_build_t* b, int32_t v )
{
	return b->d->vertex_alias ? b->d->vertex_alias[v] : v;
}

static int32_t h_from( const fl_build_t* b, int64_t h )
{
	return b->d->cell_vertices[h];
}

static int32_t h_to( const fl_build_t* b, int64_t h )
{
	const int64_t c = h / b->nv;
	return b->d->cell_vertices[c * b->nv + ( h % b->nv + 1 ) % b->nv];
}

static int32_t h_lo( const fl_build_t* b, int64_t h )
{
	const int32_t x = canon( b, h_from( b, h ) ), y = canon( b, h_to( b, h ) );
	return x < y ? x : y;
}

static int32_t h_hi( const fl_build_t* b, int64_t h )
{
	const int32_t x = canon( b, h_from( b, h ) ), y = canon( b, h_to( b, h ) );
	return x > y ? x : y;
}

static void fl_build_free( fl_build_t* b )
{
	HYB_FREE_ALL( b->bucket, b->slot, b->partner, b->face_of, b->face_h );
}

static void fl_mesh_free( hyblas_faceloop_mesh_t* m )
{
	if ( m == NULL ) return;
	HYB_FREE_ALL( m->xy, m->cell_vertices, m->face_cell, m->face_edge, m->cell_face, m->face_geom,
	              m->remap );
	free( m );
}

/* ------------------------------------------------------------------ input checks */

static hyblas_status_t check_sizes( const hyblas_faceloop_mesh_desc_t* d, char* why, size_t wl )
{
	if ( d->cell_nv != 3 && d->cell_nv != 4 )
		fl_why( why, wl, "cell_nv is %d: 3 (triangles) or 4 (quadrilaterals)", (int)d->cell_nv );
	else if ( d->n_vertices < 1 || d->n_vertices > INT32_MAX )
		fl_why( why, wl, "n_vertices is %lld: 1 .. 2^31 - 1", (long long)d->n_vertices );
	else if ( d->n_cells < 1 || d->n_cells > ( INT32_MAX / 2 ) / d->cell_nv )
		fl_why( why, wl,
		        "n_cells is %lld: 1 .. 2^30 / cell_nv (a face is numbered 2 f + side in int32)",
		        (long long)d->n_cells );
	else if ( d->xy == NULL || d->cell_vertices == NULL )
		fl_why( why, wl, "xy and cell_vertices must not be NULL" );
	else if ( d->n_faces < 0 || d->n_faces > INT32_MAX / 2 ||
	          ( d->n_faces > 0 && d->face_vertices == NULL ) )
		fl_why( why, wl, "n_faces is %lld with face_vertices %s", (long long)d->n_faces,
		        d->face_vertices ? "given" : "NULL" );
	else
		return HYBLAS_OK;
	return HYBLAS_E_INVALID;
}

static hyblas_status_t check_vertices( const hyblas_faceloop_mesh_desc_t* d, char* why, size_t wl )
{
	for ( int64_t v = 0; v < d->n_vertices; v++ )
		if ( !isfinite( d->xy[2 * v] ) || !isfinite( d->xy[2 * v + 1] ) )
		{
			fl_why( why, wl, "vertex %lld has a coordinate that is not finite", (long long)v );
			return HYBLAS_E_INVALID;
		}
	if ( d->vertex_alias == NULL ) return HYBLAS_OK;
	for ( int64_t v = 0; v < d->n_vertices; v++ )
	{
		const int32_t a = d->vertex_alias[v];
		if ( a < 0 || a >= d->n_vertices || d->vertex_alias[a] != a )
		{
			fl_why( why, wl,
			        "vertex_alias[%lld] = %d: out of range, or a vertex that is itself an alias",
			        (long long)v, (int)a );
			return HYBLAS_E_INVALID;
		}
	}
	return HYBLAS_OK;
}

/* Cross product of (b - a) and (c - b). */
static double corner( const double* xy, int32_t a, int32_t b, int32_t c )
{
	return ( xy[2 * b] - xy[2 * a] ) * ( xy[2 * c + 1] - xy[2 * b + 1] ) -
	       ( xy[2 * b + 1] - xy[2 * a + 1] ) * ( xy[2 * c] - xy[2 * b] );
}

/* Every cell: vertex indices in range, distinct (also through the alias), counterclockwise
   and not degenerate, a quadrilateral strictly convex. */
static hyblas_status_t check_cells( const fl_build_t* b, char* why, size_t wl )
{
	const hyblas_faceloop_mesh_desc_t* d  = b->d;
	const int                          nv = b->nv;
	for ( int64_t c = 0; c < d->n_cells; c++ )
	{
		const int32_t* v = d->cell_vertices + c * nv;
		for ( int k = 0; k < nv; k++ )
			if ( v[k] < 0 || v[k] >= d->n_vertices )
			{
				fl_why( why, wl, "cell %lld: vertex index %d out of range", (long long)c,
				        (int)v[k] );
				return HYBLAS_E_INVALID;
			}
		for ( int k = 0; k < nv; k++ )
			for ( int l = k + 1; l < nv; l++ )
				if ( canon( b, v[k] ) == canon( b, v[l] ) )
				{
					fl_why( why, wl, "cell %lld: vertices %d and %d are the same vertex%s",
					        (long long)c, (int)v[k], (int)v[l],
					        v[k] == v[l] ? "" : " through vertex_alias" );
					return HYBLAS_E_INVALID;
				}
		double area = 0.0, size2 = 0.0, worst = INFINITY;
		for ( int k = 0; k < nv; k++ )
		{
			const int32_t p = v[k], q = v[( k + 1 ) % nv];
			const double dx = d->xy[2 * q] - d->xy[2 * p], dy = d->xy[2 * q + 1] - d->xy[2 * p + 1];
			area += 0.5 * ( d->xy[2 * p] * d->xy[2 * q + 1] - d->xy[2 * q] * d->xy[2 * p + 1] );
			size2           = fmax( size2, dx * dx + dy * dy );
			const double cr = corner( d->xy, p, q, v[( k + 2 ) % nv] );
			worst           = fmin( worst, cr );
		}
		if ( !( area > HYB_FL_TOL * size2 ) )
		{
			fl_why( why, wl, "cell %lld is clockwise or degenerate (signed area %.3g)",
			        (long long)c, area );
			return HYBLAS_E_INVALID;
		}
		if ( !( worst > HYB_FL_TOL * size2 ) )
		{
			fl_why( why, wl, "cell %lld is not strictly convex (corner cross product %.3g)",
			        (long long)c, worst );
			return HYBLAS_E_INVALID;
		}
	}
	return HYBLAS_OK;
}

/* ------------------------------------------------------------------ matching edges */

/* Group the half-edges by their edge's lower canonical vertex (a counting sort). */
static void bucket_edges( fl_build_t* b )
{
	const int64_t nvert = b->d->n_vertices;
	for ( int64_t h = 0; h < b->nh; h++ ) b->bucket[h_lo( b, h ) + 1]++;
	for ( int64_t v = 0; v < nvert; v++ ) b->bucket[v + 1] += b->bucket[v];
	int64_t* fill = b->bucket; /* advanced while filling, restored below */
	for ( int64_t h = 0; h < b->nh; h++ ) b->slot[fill[h_lo( b, h )]++] = (int32_t)h;
	for ( int64_t v = nvert; v > 0; v-- ) b->bucket[v] = b->bucket[v - 1];
	b->bucket[0] = 0;
}

/* Pair each half-edge with the other half-edge of its edge; an edge of three cells or more,
   or one walked the same way twice, is an error. */
static hyblas_status_t match_edges( fl_build_t* b, char* why, size_t wl )
{
	for ( int64_t v = 0; v < b->d->n_vertices; v++ )
		for ( int64_t s = b->bucket[v]; s < b->bucket[v + 1]; s++ )
		{
			const int32_t h     = b->slot[s];
			const int32_t hi    = h_hi( b, h );
			int32_t       other = -1, n = 0;
			for ( int64_t s2 = b->bucket[v]; s2 < b->bucket[v + 1]; s2++ )
				if ( s2 != s && h_hi( b, b->slot[s2] ) == hi )
				{
					other = b->slot[s2];
					n++;
				}
			if ( n > 1 )
			{
				fl_why(
				    why, wl,
				    "edge %d-%d belongs to more than two cells (non-manifold), among them cells "
				    "%lld and %lld",
				    (int)v, (int)hi, (long long)( h / b->nv ), (long long)( other / b->nv ) );
				return HYBLAS_E_INVALID;
			}
			if ( n == 1 && canon( b, h_from( b, h ) ) == canon( b, h_from( b, other ) ) )
			{
				fl_why( why, wl,
				        "edge %d-%d is walked the same way by cells %lld and %lld: inconsistent "
				        "orientation or overlapping cells",
				        (int)v, (int)hi, (long long)( h / b->nv ), (long long)( other / b->nv ) );
				return HYBLAS_E_INVALID;
			}
			b->partner[h] = other;
		}
	return HYBLAS_OK;
}

/* Faces in order of first appearance: half-edge by half-edge, a new face at each half-edge
   whose edge has none yet. */
static int64_t derive_faces( fl_build_t* b )
{
	int64_t nf = 0;
	for ( int64_t h = 0; h < b->nh; h++ )
	{
		if ( b->face_of[h] >= 0 ) continue;
		b->face_h[nf] = (int32_t)h;
		b->face_of[h] = (int32_t)nf;
		if ( b->partner[h] >= 0 ) b->face_of[b->partner[h]] = (int32_t)nf;
		nf++;
	}
	return nf;
}

/* The caller's faces: each must be a cell edge, none twice, and cover every edge. */
static hyblas_status_t list_faces( fl_build_t* b, char* why, size_t wl )
{
	const hyblas_faceloop_mesh_desc_t* d = b->d;
	for ( int64_t k = 0; k < d->n_faces; k++ )
	{
		const int32_t p = d->face_vertices[2 * k], q = d->face_vertices[2 * k + 1];
		if ( p < 0 || p >= d->n_vertices || q < 0 || q >= d->n_vertices )
		{
			fl_why( why, wl, "face %lld: vertex index out of range (%d-%d)", (long long)k, (int)p,
			        (int)q );
			return HYBLAS_E_INVALID;
		}
		const int32_t cp = canon( b, p ), cq = canon( b, q );
		const int32_t lo = cp < cq ? cp : cq, hi = cp < cq ? cq : cp;
		int32_t       h = -1;
		for ( int64_t s = b->bucket[lo]; s < b->bucket[lo + 1] && h < 0 && lo != hi; s++ )
			if ( h_hi( b, b->slot[s] ) == hi ) h = b->slot[s];
		if ( h < 0 )
		{
			fl_why( why, wl, "face %lld (vertices %d-%d) is no cell's edge (dangling face)",
			        (long long)k, (int)p, (int)q );
			return HYBLAS_E_INVALID;
		}
		if ( b->partner[h] >= 0 && b->partner[h] < h ) h = b->partner[h];
		if ( b->face_of[h] >= 0 )
		{
			fl_why( why, wl, "face %lld (vertices %d-%d) repeats face %d", (long long)k, (int)p,
			        (int)q, (int)b->face_of[h] );
			return HYBLAS_E_INVALID;
		}
		b->face_h[k]  = h;
		b->face_of[h] = (int32_t)k;
		if ( b->partner[h] >= 0 ) b->face_of[b->partner[h]] = (int32_t)k;
	}
	for ( int64_t h = 0; h < b->nh; h++ )
		if ( b->face_of[h] < 0 )
		{
			fl_why( why, wl, "edge %d-%d of cell %lld is not in face_vertices", (int)h_from( b, h ),
			        (int)h_to( b, h ), (long long)( h / b->nv ) );
			return HYBLAS_E_INVALID;
		}
	return HYBLAS_OK;
}

/* ------------------------------------------------------------------ the mesh */

/* Connectivity and geometry of every face from its left half-edge; the two sides of an
   interior face must be the same segment walked both ways (a periodic pair: translates). */
static hyblas_status_t fill_faces( const fl_build_t* b, hyblas_faceloop_mesh_t* m, char* why,
                                   size_t wl )
{
	const double* xy = m->xy;
	const int64_t nf = m->n_faces;
	for ( int64_t f = 0; f < nf; f++ )
	{
		const int32_t h = b->face_h[f], o = b->partner[h];
		m->face_cell[2 * f]     = (int32_t)( h / b->nv );
		m->face_edge[2 * f]     = (int8_t)( h % b->nv );
		m->face_cell[2 * f + 1] = o >= 0 ? (int32_t)( o / b->nv ) : -1;
		m->face_edge[2 * f + 1] = (int8_t)( o >= 0 ? o % b->nv : -1 );
		m->cell_face[h]         = (int32_t)( 2 * f );
		if ( o >= 0 ) m->cell_face[o] = (int32_t)( 2 * f + 1 );
		const int32_t a = h_from( b, h ), c = h_to( b, h );
		const double  dx = xy[2 * c] - xy[2 * a], dy = xy[2 * c + 1] - xy[2 * a + 1];
		const double  len                      = hypot( dx, dy );
		m->face_geom[HYB_FL_GEOM_NX * nf + f]  = dy / len;
		m->face_geom[HYB_FL_GEOM_NY * nf + f]  = -dx / len;
		m->face_geom[HYB_FL_GEOM_LEN * nf + f] = len;
		m->face_geom[HYB_FL_GEOM_XA * nf + f]  = xy[2 * a];
		m->face_geom[HYB_FL_GEOM_YA * nf + f]  = xy[2 * a + 1];
		m->face_geom[HYB_FL_GEOM_XB * nf + f]  = xy[2 * c];
		m->face_geom[HYB_FL_GEOM_YB * nf + f]  = xy[2 * c + 1];
		if ( o < 0 )
		{
			m->n_boundary++;
			continue;
		}
		const int32_t a2 = h_from( b, o ), c2 = h_to( b, o );
		const double  ex = dx + ( xy[2 * c2] - xy[2 * a2] ),
		             ey  = dy + ( xy[2 * c2 + 1] - xy[2 * a2 + 1] );
		if ( hypot( ex, ey ) > HYB_FL_PERIODIC_TOL * len )
		{
			fl_why( why, wl,
			        "face %lld: its sides in cells %d and %d are not the same segment (periodic "
			        "vertex_alias pairs edges of different length or direction)",
			        (long long)f, (int)m->face_cell[2 * f], (int)m->face_cell[2 * f + 1] );
			return HYBLAS_E_INVALID;
		}
	}
	return HYBLAS_OK;
}

/* Areas, the smallest area / perimeter, and the quadrilaterals that are not
   parallelograms (bilinear maps). */
static void cell_measures( hyblas_faceloop_mesh_t* m )
{
	m->h_min = INFINITY;
	for ( int64_t c = 0; c < m->n_cells; c++ )
	{
		const int32_t* v    = m->cell_vertices + c * m->nv;
		double         area = 0.0, per = 0.0;
		for ( int k = 0; k < m->nv; k++ )
		{
			const double* p = m->xy + 2 * v[k];
			const double* q = m->xy + 2 * v[( k + 1 ) % m->nv];
			area += 0.5 * ( p[0] * q[1] - q[0] * p[1] );
			per += hypot( q[0] - p[0], q[1] - p[1] );
		}
		m->area += area;
		m->h_min = fmin( m->h_min, area / per );
		if ( m->nv == 4 )
		{
			const double* x  = m->xy;
			const double  gx = x[2 * v[0]] + x[2 * v[2]] - x[2 * v[1]] - x[2 * v[3]];
			const double gy = x[2 * v[0] + 1] + x[2 * v[2] + 1] - x[2 * v[1] + 1] - x[2 * v[3] + 1];
			if ( hypot( gx, gy ) > HYB_FL_TOL * per ) m->n_bilinear++;
		}
	}
}

int64_t hyb_fl_mixed_warps( const int32_t* face_cell, const int32_t* order, int64_t n, int warp )
{
	int64_t mixed = 0;
	for ( int64_t w = 0; w < n; w += warp )
	{
		int kinds = 0;
		for ( int64_t t = w; t < n && t < w + warp; t++ )
		{
			const int64_t f = order ? order[t] : t;
			kinds |= face_cell[2 * f + 1] >= 0 ? 1 : 2;
		}
		mixed += kinds == 3;
	}
	return mixed;
}

/* The partition of faces by kind (interior first) and the divergence counts. */
static hyblas_status_t remap_faces( hyblas_faceloop_mesh_t* m, int threads )
{
	uint8_t* pred = malloc( (size_t)m->n_faces );
	if ( pred == NULL ) return HYBLAS_E_NO_MEMORY;
	for ( int64_t f = 0; f < m->n_faces; f++ ) pred[f] = m->face_cell[2 * f + 1] >= 0;
	const hyb_status_t st = hyb_fl_partition( pred, m->n_faces, m->remap, &m->n_interior, threads );
	free( pred );
	if ( st != HYB_OK ) return st == HYB_E_NO_MEMORY ? HYBLAS_E_NO_MEMORY : HYBLAS_E_INTERNAL;
	m->warps_mixed_vanilla  = hyb_fl_mixed_warps( m->face_cell, NULL, m->n_faces, HYB_FL_WARP );
	m->warps_mixed_remapped = hyb_fl_mixed_warps( m->face_cell, m->remap, m->n_faces, HYB_FL_WARP );
	return HYBLAS_OK;
}

hyblas_status_t hyb_fl_mesh_build( const hyblas_faceloop_mesh_desc_t* d, int threads,
                                   hyblas_faceloop_mesh_t** out, char* why, size_t wl )
{
	hyblas_status_t st = check_sizes( d, why, wl );
	if ( st == HYBLAS_OK ) st = check_vertices( d, why, wl );
	if ( st != HYBLAS_OK ) return st;
	fl_build_t b;
	memset( &b, 0, sizeof b );
	b.d  = d;
	b.nv = d->cell_nv;
	b.nh = d->n_cells * b.nv;
	st   = check_cells( &b, why, wl );
	if ( st != HYBLAS_OK ) return st;

	const size_t nh           = (size_t)b.nh;
	b.bucket                  = calloc( (size_t)d->n_vertices + 1, sizeof *b.bucket );
	b.slot                    = malloc( nh * sizeof *b.slot );
	b.partner                 = malloc( nh * sizeof *b.partner );
	b.face_of                 = malloc( nh * sizeof *b.face_of );
	b.face_h                  = malloc( nh * sizeof *b.face_h );
	hyblas_faceloop_mesh_t* m = calloc( 1, sizeof *m );
	if ( m ) m->xy = malloc( 2 * (size_t)d->n_vertices * sizeof *m->xy );
	if ( m ) m->cell_vertices = malloc( nh * sizeof *m->cell_vertices );
	if ( m ) m->cell_face = malloc( nh * sizeof *m->cell_face );
	if ( !b.bucket || !b.slot || !b.partner || !b.face_of || !b.face_h || !m || !m->xy ||
	     !m->cell_vertices || !m->cell_face )
	{
		fl_build_free( &b );
		fl_mesh_free( m );
		fl_why( why, wl, "out of host memory" );
		return HYBLAS_E_NO_MEMORY;
	}
	memset( b.face_of, 0xff, nh * sizeof *b.face_of );
	bucket_edges( &b );
	st         = match_edges( &b, why, wl );
	int64_t nf = d->n_faces;
	if ( st == HYBLAS_OK && nf == 0 )
		nf = derive_faces( &b );
	else if ( st == HYBLAS_OK )
		st = list_faces( &b, why, wl );
	if ( st == HYBLAS_OK )
	{
		m->nv         = b.nv;
		m->n_vertices = d->n_vertices;
		m->n_cells    = d->n_cells;
		m->n_faces    = nf;
		memcpy( m->xy, d->xy, 2 * (size_t)d->n_vertices * sizeof *m->xy );
		memcpy( m->cell_vertices, d->cell_vertices, nh * sizeof *m->cell_vertices );
		m->face_cell = malloc( 2 * (size_t)nf * sizeof *m->face_cell );
		m->face_edge = malloc( 2 * (size_t)nf * sizeof *m->face_edge );
		m->face_geom = malloc( HYB_FL_GEOM_COUNT * (size_t)nf * sizeof *m->face_geom );
		m->remap     = malloc( (size_t)nf * sizeof *m->remap );
		if ( !m->face_cell || !m->face_edge || !m->face_geom || !m->remap ) st = HYBLAS_E_NO_MEMORY;
	}
	if ( st == HYBLAS_OK ) st = fill_faces( &b, m, why, wl );
	fl_build_free( &b );
	if ( st == HYBLAS_OK ) st = remap_faces( m, threads );
	if ( st != HYBLAS_OK )
	{
		if ( st == HYBLAS_E_NO_MEMORY ) fl_why( why, wl, "out of host memory" );
		fl_mesh_free( m );
		return st;
	}
	cell_measures( m );
	m->refs = 1;
	*out    = m;
	return HYBLAS_OK;
}

/* The count is a plain int under the compiler's atomic builtins, so that the struct stays
   readable from C++ (the GPU check program includes this header). */
void hyb_fl_mesh_retain( hyblas_faceloop_mesh_t* m )
{
	__atomic_fetch_add( &m->refs, 1, __ATOMIC_RELAXED );
}

void hyb_fl_mesh_release( hyblas_faceloop_mesh_t* m )
{
	if ( m != NULL && __atomic_fetch_sub( &m->refs, 1, __ATOMIC_ACQ_REL ) == 1 ) fl_mesh_free( m );
}
