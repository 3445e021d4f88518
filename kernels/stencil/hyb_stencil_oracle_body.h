/* SPDX-License-Identifier: BSD-3-Clause */
/* The serial oracle's loops, written once for both element types:
   hyb_stencil_oracle.c includes it with HYB_T and HYB_SFX. */

#define HYB_CAT2( a, b ) a##b
#define HYB_CAT( a, b )  HYB_CAT2( a, b )
#define HYB_FN( name )   HYB_CAT( name, HYB_SFX )

/* Element (z, y, x) of an array of the problem. */
#define P3( a, z, y, x ) ( a )[( ( (int64_t)(z)*ny ) + ( y ) ) * nx + ( x )]

static int HYB_FN( o_fixed )( const hyb_stencil_prob_t* p, int64_t z, int64_t y, int64_t x )
{
	const int64_t r = p->radius;
	if ( z < r || z >= p->nz - r || x < r || x >= p->nx - r ) return 1;
	return p->dims == 3 && ( y < r || y >= p->ny - r );
}

static void HYB_FN( o_acoustic )( const hyb_stencil_prob_t* p, int64_t steps )
{
	const int64_t nx = p->nx, ny = p->ny, nz = p->nz;
	HYB_T*        lev[3] = { p->field[HYB_ACOUSTIC_PREV], p->field[HYB_ACOUSTIC_CUR],
		                     p->field[HYB_ACOUSTIC_NEXT] };
	const HYB_T*  v      = p->field[HYB_ACOUSTIC_VEL];
	const double  idx2 = 1.0 / ( p->dx * p->dx ), idy2 = 1.0 / ( p->dy * p->dy ),
	             idz2 = 1.0 / ( p->dz * p->dz );
	const HYB_T c0    = (HYB_T)( ( idx2 + idy2 + idz2 ) * HYB_ACOUSTIC_C0 ),
	            dt2   = (HYB_T)( p->dt * p->dt );
	const HYB_T w[5]  = { 0, (HYB_T)HYB_ACOUSTIC_C1, (HYB_T)HYB_ACOUSTIC_C2, (HYB_T)HYB_ACOUSTIC_C3,
		                  (HYB_T)HYB_ACOUSTIC_C4 };
	const HYB_T ix = (HYB_T)idx2, iy = (HYB_T)idy2, iz = (HYB_T)idz2;
	for ( int64_t t = 0; t < steps; t++ )
	{
		const HYB_T* p1 = lev[0];
		const HYB_T* p2 = lev[1];
		HYB_T*       p3 = lev[2];
		for ( int64_t z = 0; z < nz; z++ )
			for ( int64_t y = 0; y < ny; y++ )
				for ( int64_t x = 0; x < nx; x++ )
				{
					if ( HYB_FN( o_fixed )( p, z, y, x ) )
					{
						P3( p3, z, y, x ) = P3( p2, z, y, x );
						continue;
					}
					/* Fig. 3.1, with p2 where the figure prints p. */
					HYB_T s = c0 * P3( p2, z, y, x );
					s += ix * ( w[4] * ( P3( p2, z, y, x + 4 ) + P3( p2, z, y, x - 4 ) ) +
					            w[3] * ( P3( p2, z, y, x + 3 ) + P3( p2, z, y, x - 3 ) ) +
					            w[2] * ( P3( p2, z, y, x + 2 ) + P3( p2, z, y, x - 2 ) ) +
					            w[1] * ( P3( p2, z, y, x + 1 ) + P3( p2, z, y, x - 1 ) ) );
					s += iy * ( w[4] * ( P3( p2, z, y + 4, x ) + P3( p2, z, y - 4, x ) ) +
					            w[3] * ( P3( p2, z, y + 3, x ) + P3( p2, z, y - 3, x ) ) +
					            w[2] * ( P3( p2, z, y + 2, x ) + P3( p2, z, y - 2, x ) ) +
					            w[1] * ( P3( p2, z, y + 1, x ) + P3( p2, z, y - 1, x ) ) );
					s += iz * ( w[4] * ( P3( p2, z + 4, y, x ) + P3( p2, z - 4, y, x ) ) +
					            w[3] * ( P3( p2, z + 3, y, x ) + P3( p2, z - 3, y, x ) ) +
					            w[2] * ( P3( p2, z + 2, y, x ) + P3( p2, z - 2, y, x ) ) +
					            w[1] * ( P3( p2, z + 1, y, x ) + P3( p2, z - 1, y, x ) ) );
					P3( p3, z, y, x ) = P3( v, z, y, x ) * P3( v, z, y, x ) * dt2 * s +
					                    (HYB_T)2 * P3( p2, z, y, x ) - P3( p1, z, y, x );
				}
		HYB_T* oldest = lev[0];
		lev[0]        = lev[1];
		lev[1]        = lev[2];
		lev[2]        = oldest;
	}
	/* Into place: PREV = p(T-1), CUR = p(T), copying in an order that never
	   overwrites a level before it is read. */
	HYB_T*       prev = p->field[HYB_ACOUSTIC_PREV];
	HYB_T*       cur  = p->field[HYB_ACOUSTIC_CUR];
	const size_t n    = (size_t)( nx * ny * nz ) * sizeof( HYB_T );
	if ( lev[1] == prev )
	{
		memcpy( cur, lev[1], n );
		memcpy( prev, lev[0], n );
	}
	else
	{
		if ( lev[0] != prev ) memcpy( prev, lev[0], n );
		if ( lev[1] != cur ) memcpy( cur, lev[1], n );
	}
}

static double HYB_FN( o_himeno )( const hyb_stencil_prob_t* p, int64_t steps )
{
	const int64_t nx = p->nx, ny = p->ny, nz = p->nz;
	HYB_T*        pr = p->field[HYB_HIMENO_P];
	HYB_T*        w2 = p->field[HYB_HIMENO_WRK2];
	const HYB_T * a0 = p->field[HYB_HIMENO_A0], *a1 = p->field[HYB_HIMENO_A0 + 1],
	            *a2 = p->field[HYB_HIMENO_A0 + 2], *a3 = p->field[HYB_HIMENO_A0 + 3];
	const HYB_T *b0 = p->field[HYB_HIMENO_B0], *b1 = p->field[HYB_HIMENO_B0 + 1],
	            *b2 = p->field[HYB_HIMENO_B0 + 2];
	const HYB_T *c0 = p->field[HYB_HIMENO_C0], *c1 = p->field[HYB_HIMENO_C0 + 1],
	            *c2  = p->field[HYB_HIMENO_C0 + 2];
	const HYB_T *bnd = p->field[HYB_HIMENO_BND], *wrk1 = p->field[HYB_HIMENO_WRK1];
	const HYB_T  omega = (HYB_T)p->omega;
	double       gosa  = 0.0;
	for ( int64_t n = 0; n < steps; n++ )
	{
		gosa = 0.0;
		for ( int64_t i = 1; i < nz - 1; i++ )
			for ( int64_t j = 1; j < ny - 1; j++ )
				for ( int64_t k = 1; k < nx - 1; k++ )
				{
					HYB_T s0 = P3( a0, i, j, k ) * P3( pr, i + 1, j, k ) +
					           P3( a1, i, j, k ) * P3( pr, i, j + 1, k ) +
					           P3( a2, i, j, k ) * P3( pr, i, j, k + 1 ) +
					           P3( b0, i, j, k ) *
					               ( P3( pr, i + 1, j + 1, k ) - P3( pr, i + 1, j - 1, k ) -
					                 P3( pr, i - 1, j + 1, k ) + P3( pr, i - 1, j - 1, k ) ) +
					           P3( b1, i, j, k ) *
					               ( P3( pr, i, j + 1, k + 1 ) - P3( pr, i, j - 1, k + 1 ) -
					                 P3( pr, i, j + 1, k - 1 ) + P3( pr, i, j - 1, k - 1 ) ) +
					           P3( b2, i, j, k ) *
					               ( P3( pr, i + 1, j, k + 1 ) - P3( pr, i - 1, j, k + 1 ) -
					                 P3( pr, i + 1, j, k - 1 ) + P3( pr, i - 1, j, k - 1 ) ) +
					           P3( c0, i, j, k ) * P3( pr, i - 1, j, k ) +
					           P3( c1, i, j, k ) * P3( pr, i, j - 1, k ) +
					           P3( c2, i, j, k ) * P3( pr, i, j, k - 1 ) + P3( wrk1, i, j, k );
					HYB_T ss = ( s0 * P3( a3, i, j, k ) - P3( pr, i, j, k ) ) * P3( bnd, i, j, k );
					gosa += (double)( ss * ss );
					P3( w2, i, j, k ) = P3( pr, i, j, k ) + omega * ss;
				}
		for ( int64_t i = 1; i < nz - 1; i++ )
			for ( int64_t j = 1; j < ny - 1; j++ )
				for ( int64_t k = 1; k < nx - 1; k++ ) P3( pr, i, j, k ) = P3( w2, i, j, k );
	}
	return gosa;
}

/* The 2-D Laplace sweep (Fig. 3.2) and the star: the new level into WORK,
   then the interior copied back into U. */
static void HYB_FN( o_grid )( const hyb_stencil_prob_t* p, int64_t steps )
{
	const int64_t nx = p->nx, ny = p->ny, nz = p->nz;
	HYB_T*        u         = p->field[HYB_GRID_U];
	HYB_T*        wk        = p->field[HYB_GRID_WORK];
	const int     r         = p->radius;
	const int64_t stride[3] = { 1, nx, nx * ny };
	for ( int64_t t = 0; t < steps; t++ )
	{
		for ( int64_t z = 0; z < nz; z++ )
			for ( int64_t y = 0; y < ny; y++ )
				for ( int64_t x = 0; x < nx; x++ )
				{
					if ( HYB_FN( o_fixed )( p, z, y, x ) ) continue;
					const HYB_T* q = &P3( u, z, y, x );
					HYB_T        s;
					if ( p->kind == HYB_STENCIL_LAPLACE )
						s = (HYB_T)0.25 * ( q[1] + q[-1] + q[nx] + q[-nx] );
					else
					{
						s = (HYB_T)p->center * q[0];
						for ( int ax = 0; ax < 3; ax++ )
						{
							if ( ax == 1 && p->dims == 2 ) continue;
							for ( int j = 1; j <= r; j++ )
							{
								s += (HYB_T)p->coef[ax][r - j] * q[-j * stride[ax]];
								s += (HYB_T)p->coef[ax][r - 1 + j] * q[j * stride[ax]];
							}
						}
					}
					P3( wk, z, y, x ) = s;
				}
		for ( int64_t z = 0; z < nz; z++ )
			for ( int64_t y = 0; y < ny; y++ )
				for ( int64_t x = 0; x < nx; x++ )
					if ( !HYB_FN( o_fixed )( p, z, y, x ) ) P3( u, z, y, x ) = P3( wk, z, y, x );
	}
}

/* The damped wave: q' from p and q into Q_WORK, p' = p + dt q' into
   P_WORK, then both interiors copied back. */
static void HYB_FN( o_wave )( const hyb_stencil_prob_t* p, int64_t steps )
{
	const int64_t nx = p->nx, ny = p->ny, nz = p->nz;
	HYB_T*        pp = p->field[HYB_WAVE_P];
	HYB_T*        qq = p->field[HYB_WAVE_Q];
	HYB_T*        pw = p->field[HYB_WAVE_P_WORK];
	HYB_T*        qw = p->field[HYB_WAVE_Q_WORK];
	const double  ix = 1.0 / ( p->dx * p->dx ), iz = 1.0 / ( p->dy * p->dy );
	const HYB_T   kx = (HYB_T)ix, kz = (HYB_T)iz, kc = (HYB_T)( 2.0 * ( ix + iz ) );
	const HYB_T   decay = (HYB_T)( 1.0 - p->damping * p->dt );
	const HYB_T   c2dt = (HYB_T)( p->speed * p->speed * p->dt ), dt = (HYB_T)p->dt;
	for ( int64_t t = 0; t < steps; t++ )
	{
		for ( int64_t z = 0; z < nz; z++ )
			for ( int64_t x = 0; x < nx; x++ )
			{
				if ( HYB_FN( o_fixed )( p, z, 0, x ) ) continue;
				const HYB_T lap = kx * ( P3( pp, z, 0, x + 1 ) + P3( pp, z, 0, x - 1 ) ) +
				                  kz * ( P3( pp, z + 1, 0, x ) + P3( pp, z - 1, 0, x ) ) -
				                  kc * P3( pp, z, 0, x );
				P3( qw, z, 0, x ) = decay * P3( qq, z, 0, x ) + c2dt * lap;
				P3( pw, z, 0, x ) = P3( pp, z, 0, x ) + dt * P3( qw, z, 0, x );
			}
		for ( int64_t z = 0; z < nz; z++ )
			for ( int64_t x = 0; x < nx; x++ )
				if ( !HYB_FN( o_fixed )( p, z, 0, x ) )
				{
					P3( pp, z, 0, x ) = P3( pw, z, 0, x );
					P3( qq, z, 0, x ) = P3( qw, z, 0, x );
				}
	}
}

static double HYB_FN( o_run )( const hyb_stencil_prob_t* p, int64_t steps )
{
	switch ( p->kind )
	{
	case HYB_STENCIL_WAVE:
		HYB_FN( o_wave )( p, steps );
		return 0.0;
	case HYB_STENCIL_ACOUSTIC:
		HYB_FN( o_acoustic )( p, steps );
		return 0.0;
	case HYB_STENCIL_HIMENO:
		return HYB_FN( o_himeno )( p, steps );
	default:
		HYB_FN( o_grid )( p, steps );
		return 0.0;
	}
}

#undef P3
#undef HYB_FN
#undef HYB_CAT
#undef HYB_CAT2
