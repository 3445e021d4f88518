/* SPDX-License-Identifier: BSD-3-Clause */
/* One row of each CPU stencil kernel, written once for both element types:
   hyb_stencil_cpu.c includes it with HYB_T (float or double) and HYB_SFX
   (the name suffix). Each row function updates the row (z, y) of the box's
   output and returns the row's Himeno residual (0 for the others). */

#define HYB_CAT2( a, b ) a##b
#define HYB_CAT( a, b )  HYB_CAT2( a, b )
#define HYB_FN( name )   HYB_CAT( name, HYB_SFX )

/* Offset of row (z, y) in a buffer of the box. */
static inline int64_t HYB_FN( row_off )( const hyb_stencil_box_t* b, int64_t z, int64_t y )
{
	return ( ( z - b->base ) * b->ny + y ) * b->nx;
}

/* 1 when the whole row lies in the fixed band. */
static inline int HYB_FN( row_fixed )( const hyb_stencil_box_t* b, int64_t z, int64_t y )
{
	const int64_t r = b->radius;
	if ( z < r || z >= b->nz - r ) return 1;
	return b->dims == 3 && ( y < r || y >= b->ny - r );
}

/* The row a row function updates: its offset in every array of the box,
   and that row of the level it reads and of the level it writes. */
typedef struct
{
	int64_t      off;
	const HYB_T* in;
	HYB_T*       out;
} HYB_FN( row_t );

/* Row (z, y) of the arrays `in` and `out` into *w, with the fixed band
   copied from in to out: the whole row, or its first and last r points.
   Returns 1 when the whole row was fixed. */
static inline int HYB_FN( row_begin )( const hyb_stencil_box_t* b, int64_t z, int64_t y,
                                       const void* in, void* out, HYB_FN( row_t ) * w )
{
	const int64_t r = b->radius, nx = b->nx;
	w->off         = HYB_FN( row_off )( b, z, y );
	const HYB_T* i = (const HYB_T*)in + w->off;
	HYB_T*       o = (HYB_T*)out + w->off;
	w->in          = i;
	w->out         = o;
	if ( HYB_FN( row_fixed )( b, z, y ) )
	{
		memcpy( o, i, (size_t)nx * sizeof( HYB_T ) );
		return 1;
	}
	for ( int64_t x = 0; x < r && x < nx; x++ ) o[x] = i[x];
	for ( int64_t x = nx - r > r ? nx - r : r; x < nx; x++ ) o[x] = i[x];
	return 0;
}

static double HYB_FN( acoustic_row )( const void* args, int64_t z, int64_t y )
{
	const hyb_stencil_acoustic_args_t* a = args;
	HYB_FN( row_t ) w;
	if ( HYB_FN( row_begin )( &a->box, z, y, a->cur, a->next, &w ) ) return 0.0;
	const HYB_T*  p  = (const HYB_T*)a->prev + w.off;
	const HYB_T*  v  = (const HYB_T*)a->vel + w.off;
	const int64_t sy = a->box.nx, sz = a->box.nx * a->box.ny;
	const HYB_T   kc = (HYB_T)a->center, kx = (HYB_T)a->ix, ky = (HYB_T)a->iy, kz = (HYB_T)a->iz;
	const HYB_T   dt2 = (HYB_T)a->dt2, two = (HYB_T)2;
	const HYB_T   c1 = (HYB_T)HYB_ACOUSTIC_C1, c2 = (HYB_T)HYB_ACOUSTIC_C2;
	const HYB_T   c3 = (HYB_T)HYB_ACOUSTIC_C3, c4 = (HYB_T)HYB_ACOUSTIC_C4;
	for ( int64_t x = 4; x < a->box.nx - 4; x++ )
	{
		const HYB_T* q   = w.in + x;
		HYB_T        lap = kc * q[0];
		lap += kx * ( c4 * ( q[4] + q[-4] ) + c3 * ( q[3] + q[-3] ) + c2 * ( q[2] + q[-2] ) +
		              c1 * ( q[1] + q[-1] ) );
		lap += ky * ( c4 * ( q[4 * sy] + q[-4 * sy] ) + c3 * ( q[3 * sy] + q[-3 * sy] ) +
		              c2 * ( q[2 * sy] + q[-2 * sy] ) + c1 * ( q[sy] + q[-sy] ) );
		lap += kz * ( c4 * ( q[4 * sz] + q[-4 * sz] ) + c3 * ( q[3 * sz] + q[-3 * sz] ) +
		              c2 * ( q[2 * sz] + q[-2 * sz] ) + c1 * ( q[sz] + q[-sz] ) );
		w.out[x] = v[x] * v[x] * dt2 * lap + two * q[0] - p[x];
	}
	return 0.0;
}

static double HYB_FN( himeno_row )( const void* args, int64_t z, int64_t y )
{
	const hyb_stencil_himeno_args_t* a = args;
	HYB_FN( row_t ) w;
	if ( HYB_FN( row_begin )( &a->box, z, y, a->p, a->p_new, &w ) ) return 0.0;
	const HYB_T*  a0 = (const HYB_T*)a->a[0] + w.off;
	const HYB_T*  a1 = (const HYB_T*)a->a[1] + w.off;
	const HYB_T*  a2 = (const HYB_T*)a->a[2] + w.off;
	const HYB_T*  a3 = (const HYB_T*)a->a[3] + w.off;
	const HYB_T*  b0 = (const HYB_T*)a->b[0] + w.off;
	const HYB_T*  b1 = (const HYB_T*)a->b[1] + w.off;
	const HYB_T*  b2 = (const HYB_T*)a->b[2] + w.off;
	const HYB_T*  c0 = (const HYB_T*)a->c[0] + w.off;
	const HYB_T*  c1 = (const HYB_T*)a->c[1] + w.off;
	const HYB_T*  c2 = (const HYB_T*)a->c[2] + w.off;
	const HYB_T*  bd = (const HYB_T*)a->bnd + w.off;
	const HYB_T*  w1 = (const HYB_T*)a->wrk1 + w.off;
	const int64_t sy = a->box.nx, sz = a->box.nx * a->box.ny;
	const HYB_T   om  = (HYB_T)a->omega;
	double        acc = 0.0;
	for ( int64_t x = 1; x < a->box.nx - 1; x++ )
	{
		const HYB_T* q  = w.in + x;
		const HYB_T  s0 = a0[x] * q[sz] + a1[x] * q[sy] + a2[x] * q[1] +
		                 b0[x] * ( q[sz + sy] - q[sz - sy] - q[-sz + sy] + q[-sz - sy] ) +
		                 b1[x] * ( q[sy + 1] - q[-sy + 1] - q[sy - 1] + q[-sy - 1] ) +
		                 b2[x] * ( q[sz + 1] - q[-sz + 1] - q[sz - 1] + q[-sz - 1] ) +
		                 c0[x] * q[-sz] + c1[x] * q[-sy] + c2[x] * q[-1] + w1[x];
		const HYB_T ss = ( s0 * a3[x] - q[0] ) * bd[x];
		acc += (double)( ss * ss );
		w.out[x] = q[0] + om * ss;
	}
	return acc;
}

static double HYB_FN( laplace_row )( const void* args, int64_t z, int64_t y )
{
	const hyb_stencil_laplace_args_t* a = args;
	HYB_FN( row_t ) w;
	if ( HYB_FN( row_begin )( &a->box, z, y, a->u, a->u_new, &w ) ) return 0.0;
	const HYB_T*  u       = w.in;
	const int64_t s       = a->box.nx;
	const HYB_T   quarter = (HYB_T)0.25;
	for ( int64_t x = 1; x < a->box.nx - 1; x++ )
		w.out[x] = quarter * ( u[x + 1] + u[x - 1] + u[x + s] + u[x - s] );
	return 0.0;
}

static double HYB_FN( wave_row )( const void* args, int64_t z, int64_t y )
{
	const hyb_stencil_wave_args_t* a = args;
	HYB_FN( row_t ) wp, wq;
	/* Both quantities share the fixed band. */
	HYB_FN( row_begin )( &a->box, z, y, a->q, a->q_new, &wq );
	if ( HYB_FN( row_begin )( &a->box, z, y, a->p, a->p_new, &wp ) ) return 0.0;
	const HYB_T*  p  = wp.in;
	const int64_t s  = a->box.nx;
	const HYB_T   ix = (HYB_T)a->ix, iz = (HYB_T)a->iz, kc = (HYB_T)a->center;
	const HYB_T   decay = (HYB_T)a->decay, c2dt = (HYB_T)a->c2dt, dt = (HYB_T)a->dt;
	for ( int64_t x = 1; x < a->box.nx - 1; x++ )
	{
		const HYB_T lap = ix * ( p[x + 1] + p[x - 1] ) + iz * ( p[x + s] + p[x - s] ) - kc * p[x];
		const HYB_T qn  = decay * wq.in[x] + c2dt * lap;
		wq.out[x]       = qn;
		wp.out[x]       = p[x] + dt * qn;
	}
	return 0.0;
}

static double HYB_FN( star_row )( const void* args, int64_t z, int64_t y )
{
	const hyb_stencil_star_args_t* a = args;
	HYB_FN( row_t ) w;
	if ( HYB_FN( row_begin )( &a->box, z, y, a->u, a->u_new, &w ) ) return 0.0;
	const int r = a->box.radius;
	/* Strides and coefficients of the axes in accumulation order. */
	int64_t stride[3];
	HYB_T   cm[3][HYB_STENCIL_MAX_RADIUS + 1], cp[3][HYB_STENCIL_MAX_RADIUS + 1];
	int     naxes = 0;
	for ( int ax = 0; ax < 3; ax++ )
	{
		if ( ax == 1 && a->box.dims == 2 ) continue;
		stride[naxes] = ax == 0 ? 1 : ax == 1 ? a->box.nx : a->box.nx * a->box.ny;
		for ( int j = 1; j <= r; j++ )
		{
			cm[naxes][j] = (HYB_T)a->coef[ax][r - j];
			cp[naxes][j] = (HYB_T)a->coef[ax][r - 1 + j];
		}
		naxes++;
	}
	const HYB_T center = (HYB_T)a->center;
	for ( int64_t x = r; x < a->box.nx - r; x++ )
	{
		const HYB_T* q   = w.in + x;
		HYB_T        acc = center * q[0];
		for ( int ax = 0; ax < naxes; ax++ )
			for ( int j = 1; j <= r; j++ )
			{
				acc += cm[ax][j] * q[-j * stride[ax]];
				acc += cp[ax][j] * q[j * stride[ax]];
			}
		w.out[x] = acc;
	}
	return 0.0;
}

#undef HYB_FN
#undef HYB_CAT
#undef HYB_CAT2
