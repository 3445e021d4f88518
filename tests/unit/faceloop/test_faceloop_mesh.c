/* SPDX-License-Identifier: BSD-3-Clause */
/* The face loop's meshes: the generators' counts (the seed's 220 / 840 / 3280 faces),
   connectivity and geometry checked against the cells independently, determinism, explicit
   face lists and periodic identification, and every validation failure with its reason,
   nothing written. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/faceloop/hyb_faceloop_mesh.h"
#include "kernels/faceloop/hyb_faceloop_kargs.h"
#include "unit/faceloop/test_faceloop_util.h"

static hyblas_faceloop_mesh_t* gen( hyblas_faceloop_shape_t shape, int64_t nx, int64_t ny,
                                    int periodic, double perturb, uint64_t seed )
{
	return hyb_flt_grid( shape, nx, ny, periodic, perturb, seed );
}

/* Every face against the cells it names: the left cell walks the face's end points
   counterclockwise as its edge face_edge[0], the right cell walks the same segment (or a
   translate) the other way; the normal is unit, at right angles to the face and points out
   of the left cell; cell_face points back; every cell edge has one face. */
static void check_connectivity( const hyblas_faceloop_mesh_t* m )
{
	const int64_t nf   = m->n_faces;
	int64_t       nb   = 0;
	int*          seen = calloc( (size_t)( m->n_cells * m->nv ), sizeof *seen );
	for ( int64_t f = 0; f < nf; f++ )
	{
		const int32_t L = m->face_cell[2 * f], R = m->face_cell[2 * f + 1];
		const int     eL = m->face_edge[2 * f], eR = m->face_edge[2 * f + 1];
		CU_ASSERT_FATAL( L >= 0 && L < m->n_cells && eL >= 0 && eL < m->nv );
		const double* a  = m->xy + 2 * m->cell_vertices[L * m->nv + eL];
		const double* b  = m->xy + 2 * m->cell_vertices[L * m->nv + ( eL + 1 ) % m->nv];
		const double  nx = m->face_geom[HYB_FL_GEOM_NX * nf + f],
		             ny  = m->face_geom[HYB_FL_GEOM_NY * nf + f];
		const double len = m->face_geom[HYB_FL_GEOM_LEN * nf + f];
		CU_ASSERT( fabs( hypot( nx, ny ) - 1.0 ) < 1e-14 );
		CU_ASSERT( fabs( len - hypot( b[0] - a[0], b[1] - a[1] ) ) < 1e-14 );
		CU_ASSERT( fabs( nx * ( b[0] - a[0] ) + ny * ( b[1] - a[1] ) ) < 1e-14 );
		CU_ASSERT( m->face_geom[HYB_FL_GEOM_XA * nf + f] == a[0] &&
		           m->face_geom[HYB_FL_GEOM_YB * nf + f] == b[1] );
		/* Outward: the cell's centroid lies behind the face. */
		double cx = 0, cy = 0;
		for ( int k = 0; k < m->nv; k++ )
		{
			cx += m->xy[2 * m->cell_vertices[L * m->nv + k]] / m->nv;
			cy += m->xy[2 * m->cell_vertices[L * m->nv + k] + 1] / m->nv;
		}
		CU_ASSERT( nx * ( 0.5 * ( a[0] + b[0] ) - cx ) + ny * ( 0.5 * ( a[1] + b[1] ) - cy ) >
		           0.0 );
		CU_ASSERT( m->cell_face[L * m->nv + eL] == 2 * f );
		seen[L * m->nv + eL]++;
		if ( R < 0 )
		{
			nb++;
			continue;
		}
		CU_ASSERT_FATAL( R < m->n_cells && eR >= 0 && eR < m->nv );
		const double* a2 = m->xy + 2 * m->cell_vertices[R * m->nv + eR];
		const double* b2 = m->xy + 2 * m->cell_vertices[R * m->nv + ( eR + 1 ) % m->nv];
		CU_ASSERT( fabs( ( b2[0] - a2[0] ) + ( b[0] - a[0] ) ) < 1e-12 );
		CU_ASSERT( fabs( ( b2[1] - a2[1] ) + ( b[1] - a[1] ) ) < 1e-12 );
		CU_ASSERT( m->cell_face[R * m->nv + eR] == 2 * f + 1 );
		seen[R * m->nv + eR]++;
	}
	for ( int64_t h = 0; h < m->n_cells * m->nv; h++ ) CU_ASSERT( seen[h] == 1 );
	CU_ASSERT_EQUAL( nb, m->n_boundary );
	free( seen );
}

/* The seed's quadrilateral face counts and the triangle meshes' (ours beside its 404 /
   1576 / 6224 and 380 / 1480 / 5840): 2n(n+1) and 3n^2 + 2n, periodic 2n^2 and 3n^2,
   boundary 4n; area 1 with or without perturbation. */
static void test_generator_counts( void )
{
	const int64_t ns[3] = { 10, 20, 40 }, quad[3] = { 220, 840, 3280 };
	for ( int k = 0; k < 3; k++ )
	{
		const int64_t n = ns[k];
		for ( int per = 0; per <= 1; per++ )
			for ( int shape = 0; shape <= 1; shape++ )
			{
				hyblas_faceloop_mesh_t*     m = gen( shape, n, 0, per, 0.2, 11 );
				hyblas_faceloop_mesh_info_t info;
				memset( &info, 0, sizeof info );
				info.struct_size = sizeof info;
				CU_ASSERT_FATAL( m != NULL );
				CU_ASSERT_EQUAL( hyblas_faceloop_mesh_info( m, &info ), HYBLAS_OK );
				const int64_t faces = shape == HYBLAS_FACELOOP_QUAD
				                          ? ( per ? 2 * n * n : 2 * n * ( n + 1 ) )
				                          : ( per ? 3 * n * n : 3 * n * n + 2 * n );
				CU_ASSERT_EQUAL( info.n_faces, faces );
				if ( shape == HYBLAS_FACELOOP_QUAD && !per )
					CU_ASSERT_EQUAL( info.n_faces, quad[k] );
				CU_ASSERT_EQUAL( info.n_boundary_faces, per ? 0 : 4 * n );
				CU_ASSERT_EQUAL( info.n_cells, shape == HYBLAS_FACELOOP_QUAD ? n * n : 2 * n * n );
				CU_ASSERT_EQUAL( info.cell_nv, shape == HYBLAS_FACELOOP_QUAD ? 4 : 3 );
				CU_ASSERT( fabs( info.area - 1.0 ) < 1e-12 );
				CU_ASSERT( info.h_min > 0.0 && info.h_min < 0.25 / (double)n + 1e-15 );
				if ( shape == HYBLAS_FACELOOP_QUAD ) CU_ASSERT( info.n_bilinear_cells > 0 );
				CU_ASSERT( info.warps_mixed_remapped <= 1 );
				if ( !per ) CU_ASSERT( info.warps_mixed_vanilla > info.warps_mixed_remapped );
				check_connectivity( m );
				hyblas_faceloop_mesh_destroy( m );
			}
	}
	hyblas_faceloop_mesh_t* m = gen( HYBLAS_FACELOOP_TRI, 7, 3, 0, 0.0, 5 );
	CU_ASSERT_EQUAL( m->n_faces, 3 * 7 * 3 + 7 + 3 );
	CU_ASSERT_EQUAL( m->n_bilinear, 0 );
	check_connectivity( m );
	hyblas_faceloop_mesh_destroy( m );
}

/* Faces in order of first appearance: the first cell's edges are faces 0 .. nv-1; the
   remapped order lists every interior face before every boundary face, each ascending. */
static void test_face_order( void )
{
	hyblas_faceloop_mesh_t* m = gen( HYBLAS_FACELOOP_QUAD, 5, 0, 0, 0.0, 1 );
	for ( int e = 0; e < 4; e++ ) CU_ASSERT_EQUAL( m->cell_face[e], 2 * e );
	for ( int64_t t = 0; t < m->n_faces; t++ )
	{
		const int interior = m->face_cell[2 * m->remap[t] + 1] >= 0;
		CU_ASSERT_EQUAL( interior, t < m->n_interior );
		if ( t > 0 && t != m->n_interior ) CU_ASSERT( m->remap[t] > m->remap[t - 1] );
	}
	CU_ASSERT_EQUAL( m->n_interior, m->n_faces - m->n_boundary );
	hyblas_faceloop_mesh_destroy( m );
}

/* The same grid struct gives the same mesh; another seed other diagonals and vertices. */
static void test_generator_deterministic( void )
{
	hyblas_faceloop_mesh_t* a  = gen( HYBLAS_FACELOOP_TRI, 12, 0, 0, 0.25, 3 );
	hyblas_faceloop_mesh_t* b  = gen( HYBLAS_FACELOOP_TRI, 12, 0, 0, 0.25, 3 );
	hyblas_faceloop_mesh_t* c  = gen( HYBLAS_FACELOOP_TRI, 12, 0, 0, 0.25, 4 );
	const size_t            nc = (size_t)a->n_cells * 3;
	CU_ASSERT( memcmp( a->cell_vertices, b->cell_vertices, nc * sizeof( int32_t ) ) == 0 );
	CU_ASSERT( memcmp( a->xy, b->xy, 2 * (size_t)a->n_vertices * sizeof( double ) ) == 0 );
	CU_ASSERT( memcmp( a->cell_vertices, c->cell_vertices, nc * sizeof( int32_t ) ) != 0 );
	CU_ASSERT( memcmp( a->xy, c->xy, 2 * (size_t)a->n_vertices * sizeof( double ) ) != 0 );
	hyblas_faceloop_mesh_destroy( a );
	hyblas_faceloop_mesh_destroy( b );
	hyblas_faceloop_mesh_destroy( c );
}

/* ------------------------------------------------------------------ meshes from arrays */

/* Two unit squares side by side: vertices 0 1 2 / 3 4 5 (bottom row, top row). */
static const double  sq_xy[12]   = { 0, 0, 1, 0, 2, 0, 0, 1, 1, 1, 2, 1 };
static const int32_t sq_cells[8] = { 0, 1, 4, 3, 1, 2, 5, 4 };
/* Three unit squares in a row: vertices 0 1 2 3 / 4 5 6 7. */
static const double  strip_xy[16]    = { 0, 0, 1, 0, 2, 0, 3, 0, 0, 1, 1, 1, 2, 1, 3, 1 };
static const int32_t strip_cells[12] = { 0, 1, 5, 4, 1, 2, 6, 5, 2, 3, 7, 6 };

static hyblas_faceloop_mesh_desc_t desc_of( const double* xy, int64_t nvert, const int32_t* cells,
                                            int64_t ncell, int nv )
{
	hyblas_faceloop_mesh_desc_t d;
	memset( &d, 0, sizeof d );
	d.struct_size   = sizeof d;
	d.n_vertices    = nvert;
	d.xy            = xy;
	d.n_cells       = ncell;
	d.cell_nv       = nv;
	d.cell_vertices = cells;
	return d;
}

/* Create must fail with `st`, name `word` in its reason, leave *mesh as it was, and leave
   the caller's arrays alone (they are const, and compared byte by byte anyway). */
static void expect_fail( const hyblas_faceloop_mesh_desc_t* d, hyblas_status_t st,
                         const char* word )
{
	hyblas_faceloop_mesh_t* sentinel = (hyblas_faceloop_mesh_t*)(uintptr_t)0x5a5a;
	hyblas_faceloop_mesh_t* m        = sentinel;
	char                    why[200] = "";
	const size_t            nx       = d->xy ? 2 * (size_t)d->n_vertices * sizeof( double ) : 0;
	const size_t nc      = d->cell_vertices && d->n_cells > 0 && d->cell_nv > 0 && d->cell_nv < 5
	                           ? (size_t)d->n_cells * (size_t)d->cell_nv * sizeof( int32_t )
	                           : 0;
	void *       xy_copy = malloc( nx + 1 ), *c_copy = malloc( nc + 1 );
	if ( nx ) memcpy( xy_copy, d->xy, nx );
	if ( nc ) memcpy( c_copy, d->cell_vertices, nc );
	CU_ASSERT_EQUAL( hyblas_faceloop_mesh_create( d, &m, why, sizeof why ), st );
	CU_ASSERT( m == sentinel );
	CU_ASSERT_PTR_NOT_NULL( strstr( why, word ) );
	if ( strstr( why, word ) == NULL ) fprintf( stderr, "reason: %s (expected '%s')\n", why, word );
	if ( nx ) CU_ASSERT( memcmp( xy_copy, d->xy, nx ) == 0 );
	if ( nc ) CU_ASSERT( memcmp( c_copy, d->cell_vertices, nc ) == 0 );
	free( xy_copy );
	free( c_copy );
}

static void test_from_arrays( void )
{
	hyblas_faceloop_mesh_desc_t d = desc_of( sq_xy, 6, sq_cells, 2, 4 );
	hyblas_faceloop_mesh_t*     m = NULL;
	CU_ASSERT_EQUAL_FATAL( hyblas_faceloop_mesh_create( &d, &m, NULL, 0 ), HYBLAS_OK );
	CU_ASSERT_EQUAL( m->n_faces, 7 );
	CU_ASSERT_EQUAL( m->n_boundary, 6 );
	check_connectivity( m );
	/* The shared edge 1-4 is face 1 (cell 0's edge 1), cell 1's edge 3. */
	CU_ASSERT_EQUAL( m->face_cell[2], 0 );
	CU_ASSERT_EQUAL( m->face_cell[3], 1 );
	CU_ASSERT_EQUAL( m->face_edge[3], 3 );
	hyblas_faceloop_mesh_destroy( m );

	/* An explicit list in the caller's order: the shared face first, the rest reversed. */
	const int32_t fv[14] = { 4, 1, 3, 0, 4, 3, 5, 4, 2, 5, 1, 2, 0, 1 };
	d.n_faces            = 7;
	d.face_vertices      = fv;
	CU_ASSERT_EQUAL_FATAL( hyblas_faceloop_mesh_create( &d, &m, NULL, 0 ), HYBLAS_OK );
	CU_ASSERT_EQUAL( m->face_cell[0], 0 );
	CU_ASSERT_EQUAL( m->face_cell[1], 1 );
	CU_ASSERT_EQUAL( m->face_cell[2 * 6], 0 ); /* 0-1: cell 0's edge 0 */
	CU_ASSERT_EQUAL( m->face_edge[2 * 6], 0 );
	check_connectivity( m );
	hyblas_faceloop_mesh_destroy( m );

	/* Periodic in x through the alias, on a strip of three squares (two would make the
	   bottom edges 0-1 and 1-2 the same vertex pair): vertex 3 is 0, 7 is 4; the right edge
	   3-7 of cell 2 becomes the left edge 4-0 of cell 0: 9 faces, 6 on the boundary. */
	const int32_t alias[8] = { 0, 1, 2, 0, 4, 5, 6, 4 };
	d                      = desc_of( strip_xy, 8, strip_cells, 3, 4 );
	d.vertex_alias         = alias;
	CU_ASSERT_EQUAL_FATAL( hyblas_faceloop_mesh_create( &d, &m, NULL, 0 ), HYBLAS_OK );
	CU_ASSERT_EQUAL( m->n_faces, 9 );
	CU_ASSERT_EQUAL( m->n_boundary, 6 );
	const int32_t left = m->cell_face[3] >> 1; /* cell 0's edge 3, from vertex 4 to 0 */
	CU_ASSERT_EQUAL( m->face_cell[2 * left], 0 );
	CU_ASSERT_EQUAL( m->face_cell[2 * left + 1], 2 );
	check_connectivity( m );
	hyblas_faceloop_mesh_destroy( m );
}

static void test_validation( void )
{
	hyblas_faceloop_mesh_desc_t d = desc_of( sq_xy, 6, sq_cells, 2, 4 );
	d.cell_nv                     = 5;
	expect_fail( &d, HYBLAS_E_INVALID, "cell_nv" );
	d = desc_of( NULL, 6, sq_cells, 2, 4 );
	expect_fail( &d, HYBLAS_E_INVALID, "NULL" );
	d = desc_of( sq_xy, 0, sq_cells, 2, 4 );
	expect_fail( &d, HYBLAS_E_INVALID, "n_vertices" );
	d = desc_of( sq_xy, 6, sq_cells, 0, 4 );
	expect_fail( &d, HYBLAS_E_INVALID, "n_cells" );

	const int32_t bad_index[8] = { 0, 1, 4, 3, 1, 2, 6, 4 };
	d                          = desc_of( sq_xy, 6, bad_index, 2, 4 );
	expect_fail( &d, HYBLAS_E_INVALID, "out of range" );

	/* Wrong orientation: cell 1 clockwise (negative area). */
	const int32_t cw[8] = { 0, 1, 4, 3, 1, 4, 5, 2 };
	d                   = desc_of( sq_xy, 6, cw, 2, 4 );
	expect_fail( &d, HYBLAS_E_INVALID, "clockwise" );

	/* A degenerate triangle (three collinear vertices). */
	const int32_t flat[3] = { 0, 1, 2 };
	d                     = desc_of( sq_xy, 6, flat, 1, 3 );
	expect_fail( &d, HYBLAS_E_INVALID, "degenerate" );

	/* A non-convex (dart) quadrilateral, counterclockwise. */
	const double  dart_xy[8] = { 0, 0, 2, 1, 0, 2, 0.5, 1 };
	const int32_t dart[4]    = { 0, 1, 2, 3 };
	d                        = desc_of( dart_xy, 4, dart, 1, 4 );
	expect_fail( &d, HYBLAS_E_INVALID, "convex" );

	/* Non-manifold: three triangles on the edge 0-1 (two above it, one below). */
	const double  nm_xy[10] = { 0, 0, 1, 0, 0.5, 1, 0.5, -1, 0.2, 2 };
	const int32_t nm[9]     = { 0, 1, 2, 1, 0, 3, 1, 4, 0 };
	d                       = desc_of( nm_xy, 5, nm, 3, 3 );
	expect_fail( &d, HYBLAS_E_INVALID, "non-manifold" );

	/* Inconsistent orientation: two counterclockwise triangles on the same side of 0-1
	   (overlapping) walk it the same way. */
	const int32_t ov[6] = { 0, 1, 2, 0, 1, 4 };
	d                   = desc_of( nm_xy, 5, ov, 2, 3 );
	expect_fail( &d, HYBLAS_E_INVALID, "orientation" );

	/* A repeated vertex. */
	const int32_t rep[4] = { 0, 1, 1, 3 };
	d                    = desc_of( sq_xy, 6, rep, 1, 4 );
	expect_fail( &d, HYBLAS_E_INVALID, "same vertex" );

	/* A coordinate that is not finite. */
	double nan_xy[12];
	memcpy( nan_xy, sq_xy, sizeof nan_xy );
	nan_xy[7] = NAN;
	d         = desc_of( nan_xy, 6, sq_cells, 2, 4 );
	expect_fail( &d, HYBLAS_E_INVALID, "finite" );

	/* Explicit faces: a dangling face (0-4 is a diagonal, no cell's edge), a face twice, an
	   edge missing. */
	const int32_t dangling[16] = { 4, 1, 3, 0, 4, 3, 5, 4, 2, 5, 1, 2, 0, 1, 0, 4 };
	d                          = desc_of( sq_xy, 6, sq_cells, 2, 4 );
	d.n_faces                  = 8;
	d.face_vertices            = dangling;
	expect_fail( &d, HYBLAS_E_INVALID, "dangling" );
	const int32_t twice[14] = { 4, 1, 3, 0, 4, 3, 5, 4, 2, 5, 1, 2, 1, 4 };
	d.n_faces               = 7;
	d.face_vertices         = twice;
	expect_fail( &d, HYBLAS_E_INVALID, "repeats" );
	d.n_faces       = 6;
	d.face_vertices = dangling;
	expect_fail( &d, HYBLAS_E_INVALID, "not in face_vertices" );

	/* Periodic sides that do not match: the strip's last cell made a trapezoid (vertex 7
	   raised to y = 2), so its right edge, twice as long, cannot be the first cell's left
	   edge; and the alias of an alias. */
	double trap_xy[16];
	memcpy( trap_xy, strip_xy, sizeof trap_xy );
	trap_xy[15]            = 2.0;
	const int32_t alias[8] = { 0, 1, 2, 0, 4, 5, 6, 4 };
	d                      = desc_of( trap_xy, 8, strip_cells, 3, 4 );
	d.vertex_alias         = alias;
	expect_fail( &d, HYBLAS_E_INVALID, "same segment" );
	const int32_t chain[6] = { 0, 1, 0, 3, 4, 2 };
	d                      = desc_of( sq_xy, 6, sq_cells, 2, 4 );
	d.vertex_alias         = chain;
	expect_fail( &d, HYBLAS_E_INVALID, "vertex_alias" );

	/* struct_size too small. */
	d             = desc_of( sq_xy, 6, sq_cells, 2, 4 );
	d.struct_size = 8;
	expect_fail( &d, HYBLAS_E_STRUCT_SIZE, "struct_size" );

	/* The generator's checks. */
	hyblas_faceloop_grid_t  g;
	hyblas_faceloop_mesh_t* m = (hyblas_faceloop_mesh_t*)(uintptr_t)0x77;
	memset( &g, 0, sizeof g );
	g.struct_size = sizeof g;
	g.nx          = 0;
	CU_ASSERT_EQUAL( hyblas_faceloop_mesh_generate( &g, &m ), HYBLAS_E_INVALID );
	g.nx      = 4;
	g.perturb = 0.31;
	CU_ASSERT_EQUAL( hyblas_faceloop_mesh_generate( &g, &m ), HYBLAS_E_INVALID );
	g.perturb = 0.0;
	g.shape   = (hyblas_faceloop_shape_t)2;
	CU_ASSERT_EQUAL( hyblas_faceloop_mesh_generate( &g, &m ), HYBLAS_E_INVALID );
	g.shape    = HYBLAS_FACELOOP_QUAD;
	g.periodic = 1;
	g.nx       = 2; /* periodic needs 3 squares a side: with 2, two edges join the same vertices */
	CU_ASSERT_EQUAL( hyblas_faceloop_mesh_generate( &g, &m ), HYBLAS_E_INVALID );
	g.periodic = 0;
	g.nx       = 100000;
	CU_ASSERT_EQUAL( hyblas_faceloop_mesh_generate( &g, &m ), HYBLAS_E_INVALID );
	CU_ASSERT( m == (hyblas_faceloop_mesh_t*)(uintptr_t)0x77 );
	CU_ASSERT_EQUAL( hyblas_faceloop_mesh_info( NULL, NULL ), HYBLAS_E_INVALID );
	CU_ASSERT_EQUAL( hyblas_faceloop_mesh_destroy( NULL ), HYBLAS_OK );
}

/* The divergence counts against a direct count: the quadrilateral 10 x 10 mesh's 220
   faces in mesh order. */
static void test_mixed_warps( void )
{
	hyblas_faceloop_mesh_t* m     = gen( HYBLAS_FACELOOP_QUAD, 10, 0, 0, 0.0, 0 );
	int64_t                 mixed = 0;
	for ( int64_t w = 0; w * 32 < m->n_faces; w++ )
	{
		int nb = 0, n = 0;
		for ( int64_t f = w * 32; f < m->n_faces && f < w * 32 + 32; f++, n++ )
			nb += m->face_cell[2 * f + 1] < 0;
		mixed += nb > 0 && nb < n;
	}
	CU_ASSERT_EQUAL( m->warps_mixed_vanilla, mixed );
	CU_ASSERT_EQUAL( m->warps_mixed_remapped, ( m->n_interior % 32 ) != 0 );
	hyblas_faceloop_mesh_destroy( m );
}

static CU_TestInfo hyb_tests_faceloop_mesh[] = {
	{ "generator_counts_and_geometry", test_generator_counts },
	{ "face_order_and_partition", test_face_order },
	{ "generator_deterministic", test_generator_deterministic },
	{ "mesh_from_arrays_faces_periodic", test_from_arrays },
	{ "validation_reasons_nothing_written", test_validation },
	{ "mixed_warps", test_mixed_warps },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_faceloop_mesh = { "faceloop_mesh",        NULL, NULL, NULL, NULL,
	                                     hyb_tests_faceloop_mesh };
