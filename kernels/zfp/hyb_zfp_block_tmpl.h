/* SPDX-License-Identifier: BSD-3-Clause */
/* The block codec for one scalar type: included by hyb_zfp_block.h once per
   type with HYB_ZFP_SFX (the name suffix), HYB_ZFP_SCALAR, HYB_ZFP_INT,
   HYB_ZFP_UINT, HYB_ZFP_PREC, HYB_ZFP_EBITS, HYB_ZFP_EBIAS, HYB_ZFP_NBMASK,
   HYB_ZFP_FRAC_BITS, HYB_ZFP_EXP_MASK and HYB_ZFP_INT_LIMIT defined, all of
   which it undefines at the end. No include guard, on purpose. */

#define HYB_ZFP_CAT_( a, b ) a##b
#define HYB_ZFP_CAT( a, b )  HYB_ZFP_CAT_( a, b )
#define HYB_ZFP_N( name )    HYB_ZFP_CAT( name, HYB_ZFP_SFX )
#define HYB_ZFP_BITS_OF      HYB_ZFP_N( hyb_zfp_bits )
#define HYB_ZFP_POW2         HYB_ZFP_N( hyb_zfp_pow2 )

/* Wrapping integer arithmetic: the transforms of a block of garbage (a
   non-finite value, a stream that is not ours) must stay defined. */
#define HYB_ZFP_ADD( a, b ) ( (HYB_ZFP_INT)( (HYB_ZFP_UINT)( a ) + (HYB_ZFP_UINT)( b ) ) )
#define HYB_ZFP_SUB( a, b ) ( (HYB_ZFP_INT)( (HYB_ZFP_UINT)( a ) - (HYB_ZFP_UINT)( b ) ) )
#define HYB_ZFP_DBL( a )    ( (HYB_ZFP_INT)( (HYB_ZFP_UINT)( a ) << 1 ) )
#define HYB_ZFP_INT_MIN     ( (HYB_ZFP_INT)( (HYB_ZFP_UINT)1 << ( HYB_ZFP_PREC - 1 ) ) )

/* The exponent of a block's largest magnitude as frexp gives it (x = f 2^e,
   1/2 <= f < 1), but never below 1 - EBIAS, which is where subnormals are;
   an infinite largest magnitude gives 0, as glibc's frexp does. Returns 0 for
   a block with nothing but zeros (and NaNs, which never compare larger). */
HYB_ZFP_FN int HYB_ZFP_N( hyb_zfp_emax )( const HYB_ZFP_SCALAR* v, unsigned size, int* emax )
{
	HYB_ZFP_SCALAR m = 0;
	for ( unsigned i = 0; i < size; i++ )
	{
		HYB_ZFP_SCALAR a = v[i] < 0 ? -v[i] : v[i];
		if ( m < a ) m = a;
	}
	if ( !( m > 0 ) ) return 0;
	unsigned be = (unsigned)( HYB_ZFP_BITS_OF( m ) >> HYB_ZFP_FRAC_BITS ) & HYB_ZFP_EXP_MASK;
	if ( be == HYB_ZFP_EXP_MASK )
		*emax = 0;
	else if ( be == 0 )
		*emax = 1 - HYB_ZFP_EBIAS;
	else
		*emax = (int)be - ( HYB_ZFP_EBIAS - 1 );
	return 1;
}

/* Block floating point: q = v 2^(P - 2 - emax), the product in the scalar's
   precision, truncated; a product outside the integer range (or NaN) gives
   the most negative integer, which is what x86-64's conversion gives. */
HYB_ZFP_FN void HYB_ZFP_N( hyb_zfp_fwd_cast )( const HYB_ZFP_SCALAR* v, HYB_ZFP_INT* q,
                                               unsigned size, int emax )
{
	const HYB_ZFP_SCALAR s = HYB_ZFP_POW2( HYB_ZFP_PREC - 2 - emax );
	HYB_ZFP_UNROLL
	for ( unsigned i = 0; i < size; i++ )
	{
		HYB_ZFP_SCALAR p = v[i] * s;
		q[i] =
		    ( p >= -HYB_ZFP_INT_LIMIT && p < HYB_ZFP_INT_LIMIT ) ? (HYB_ZFP_INT)p : HYB_ZFP_INT_MIN;
	}
}

/* v = q 2^(emax - (P - 2)), the scale rounded to the scalar type first. */
HYB_ZFP_FN void HYB_ZFP_N( hyb_zfp_inv_cast )( const HYB_ZFP_INT* q, HYB_ZFP_SCALAR* v,
                                               unsigned size, int emax )
{
	const HYB_ZFP_SCALAR s = HYB_ZFP_POW2( emax - ( HYB_ZFP_PREC - 2 ) );
	HYB_ZFP_UNROLL
	for ( unsigned i = 0; i < size; i++ ) v[i] = (HYB_ZFP_SCALAR)q[i] * s;
}

/* The lifting's butterfly on two of the four values: forward
   a = (a + b) >> 1, then b -= a; the inverse b += a, then a = 2 a - b. */
HYB_ZFP_FN void HYB_ZFP_N( hyb_zfp_fwd_pair )( HYB_ZFP_INT* a, HYB_ZFP_INT* b )
{
	*a = HYB_ZFP_ADD( *a, *b );
	*a >>= 1;
	*b = HYB_ZFP_SUB( *b, *a );
}

HYB_ZFP_FN void HYB_ZFP_N( hyb_zfp_inv_pair )( HYB_ZFP_INT* a, HYB_ZFP_INT* b )
{
	*b = HYB_ZFP_ADD( *b, *a );
	*a = HYB_ZFP_DBL( *a );
	*a = HYB_ZFP_SUB( *a, *b );
}

/* The forward lifting transform of four values p[0], p[s], p[2s], p[3s]:
   (1/16) [4 4 4 4; 5 1 -1 -5; -4 4 4 -4; -2 6 -6 2] with the rounding of
   arithmetic shifts. */
HYB_ZFP_FN void HYB_ZFP_N( hyb_zfp_fwd_lift )( HYB_ZFP_INT* p, unsigned s )
{
	HYB_ZFP_INT x = p[0], y = p[s], z = p[2 * s], w = p[3 * s];
	HYB_ZFP_N( hyb_zfp_fwd_pair )( &x, &w );
	HYB_ZFP_N( hyb_zfp_fwd_pair )( &z, &y );
	HYB_ZFP_N( hyb_zfp_fwd_pair )( &x, &z );
	HYB_ZFP_N( hyb_zfp_fwd_pair )( &w, &y );
	w        = HYB_ZFP_ADD( w, y >> 1 );
	y        = HYB_ZFP_SUB( y, w >> 1 );
	p[0]     = x;
	p[s]     = y;
	p[2 * s] = z;
	p[3 * s] = w;
}

/* The inverse of hyb_zfp_fwd_lift, step by step backwards. */
HYB_ZFP_FN void HYB_ZFP_N( hyb_zfp_inv_lift )( HYB_ZFP_INT* p, unsigned s )
{
	HYB_ZFP_INT x = p[0], y = p[s], z = p[2 * s], w = p[3 * s];
	y = HYB_ZFP_ADD( y, w >> 1 );
	w = HYB_ZFP_SUB( w, y >> 1 );
	HYB_ZFP_N( hyb_zfp_inv_pair )( &w, &y );
	HYB_ZFP_N( hyb_zfp_inv_pair )( &x, &z );
	HYB_ZFP_N( hyb_zfp_inv_pair )( &z, &y );
	HYB_ZFP_N( hyb_zfp_inv_pair )( &x, &w );
	p[0]     = x;
	p[s]     = y;
	p[2 * s] = z;
	p[3 * s] = w;
}

/* Separable transforms of a block: along x, then y (then z); the inverse
   goes back in the opposite order. */
HYB_ZFP_FN void HYB_ZFP_N( hyb_zfp_fwd_xform2 )( HYB_ZFP_INT* q )
{
	HYB_ZFP_UNROLL
	for ( unsigned y = 0; y < 4; y++ ) HYB_ZFP_N( hyb_zfp_fwd_lift )( q + 4 * y, 1 );
	HYB_ZFP_UNROLL
	for ( unsigned x = 0; x < 4; x++ ) HYB_ZFP_N( hyb_zfp_fwd_lift )( q + x, 4 );
}

HYB_ZFP_FN void HYB_ZFP_N( hyb_zfp_inv_xform2 )( HYB_ZFP_INT* q )
{
	HYB_ZFP_UNROLL
	for ( unsigned x = 0; x < 4; x++ ) HYB_ZFP_N( hyb_zfp_inv_lift )( q + x, 4 );
	HYB_ZFP_UNROLL
	for ( unsigned y = 0; y < 4; y++ ) HYB_ZFP_N( hyb_zfp_inv_lift )( q + 4 * y, 1 );
}

HYB_ZFP_FN void HYB_ZFP_N( hyb_zfp_fwd_xform3 )( HYB_ZFP_INT* q )
{
	for ( unsigned z = 0; z < 4; z++ )
		for ( unsigned y = 0; y < 4; y++ ) HYB_ZFP_N( hyb_zfp_fwd_lift )( q + 4 * y + 16 * z, 1 );
	for ( unsigned z = 0; z < 4; z++ )
		for ( unsigned x = 0; x < 4; x++ ) HYB_ZFP_N( hyb_zfp_fwd_lift )( q + x + 16 * z, 4 );
	for ( unsigned y = 0; y < 4; y++ )
		for ( unsigned x = 0; x < 4; x++ ) HYB_ZFP_N( hyb_zfp_fwd_lift )( q + x + 4 * y, 16 );
}

HYB_ZFP_FN void HYB_ZFP_N( hyb_zfp_inv_xform3 )( HYB_ZFP_INT* q )
{
	for ( unsigned y = 0; y < 4; y++ )
		for ( unsigned x = 0; x < 4; x++ ) HYB_ZFP_N( hyb_zfp_inv_lift )( q + x + 4 * y, 16 );
	for ( unsigned z = 0; z < 4; z++ )
		for ( unsigned x = 0; x < 4; x++ ) HYB_ZFP_N( hyb_zfp_inv_lift )( q + x + 16 * z, 4 );
	for ( unsigned z = 0; z < 4; z++ )
		for ( unsigned y = 0; y < 4; y++ ) HYB_ZFP_N( hyb_zfp_inv_lift )( q + 4 * y + 16 * z, 1 );
}

/* Bit planes by transposition. The coefficients u[0..size) are a matrix of
   bits (row i: coefficient i, column k: bit k); the codec wants its columns,
   the bit planes. It is transposed in place in n x n tiles, n = min(size, P):
   rows g n .. g n + n - 1 and bits L n .. L n + n - 1 form tile (g, L), and
   after the transpose word g n + c holds, in its bits L n .. L n + n - 1,
   bit L n + c of those n coefficients. One transpose costs log2(n) rounds of
   n/2 word swaps for all the planes at once (a plane at a time costs `size`
   shifts and masks per plane); it is its own inverse. The masks of every
   round repeat with a period that divides n, so the tiles of one word (2-D:
   16-bit lanes) are transposed together. */
HYB_ZFP_FN void HYB_ZFP_N( hyb_zfp_transpose )( HYB_ZFP_UINT* a, unsigned size )
{
	const unsigned n = size < HYB_ZFP_PREC ? size : HYB_ZFP_PREC;
	HYB_ZFP_UNROLL
	for ( unsigned g = 0; g < size; g += n )
	{
		uint64_t m = n == 64   ? 0x00000000ffffffffull
		             : n == 32 ? 0x0000ffff0000ffffull
		                       : 0x00ff00ff00ff00ffull;
		HYB_ZFP_UNROLL
		for ( unsigned j = n / 2; j > 0; j >>= 1, m ^= m << j )
		{
			HYB_ZFP_UNROLL
			for ( unsigned k = 0; k < n; k = ( k + j + 1 ) & ~j )
			{
				HYB_ZFP_UINT t = ( ( a[g + k] >> j ) ^ a[g + k + j] ) & (HYB_ZFP_UINT)m;
				a[g + k] ^= t << j;
				a[g + k + j] ^= t;
			}
		}
	}
}

/* Plane k of transposed coefficients (bit i: coefficient i), and the store
   of a plane into them (which must be zero there). */
HYB_ZFP_FN uint64_t HYB_ZFP_N( hyb_zfp_plane )( const HYB_ZFP_UINT* a, unsigned size, unsigned k )
{
	const unsigned n    = size < HYB_ZFP_PREC ? size : HYB_ZFP_PREC;
	const uint64_t lane = n == 64 ? ~0ull : ( (uint64_t)1 << n ) - 1u;
	uint64_t       x    = 0;
	HYB_ZFP_UNROLL
	for ( unsigned g = 0; g < size; g += n )
		x |= ( ( (uint64_t)a[g + k % n] >> ( n * ( k / n ) ) ) & lane ) << g;
	return x;
}

HYB_ZFP_FN void HYB_ZFP_N( hyb_zfp_set_plane )( HYB_ZFP_UINT* a, unsigned size, unsigned k,
                                                uint64_t x )
{
	const unsigned n    = size < HYB_ZFP_PREC ? size : HYB_ZFP_PREC;
	const uint64_t lane = n == 64 ? ~0ull : ( (uint64_t)1 << n ) - 1u;
	HYB_ZFP_UNROLL
	for ( unsigned g = 0; g < size; g += n )
		a[g + k % n] |= (HYB_ZFP_UINT)( ( ( x >> g ) & lane ) << ( n * ( k / n ) ) );
}

/* Embedded coding of `size` negabinary coefficients (in sequency order,
   transposed by hyb_zfp_transpose) in at most `budget` bits, planes P-1 down
   to P - planes. Per plane: the bits of the n coefficients found significant
   in earlier planes, verbatim; then, while bits remain, a group test (is
   there a 1 among the others?) and, if so, the run of zeros up to that 1 in
   unary, its 1 implied when it is the last coefficient; it becomes
   significant. Returns the bits written. The plane loop has a constant
   trip count (unrolled on the device, so that every plane is a register). */
HYB_ZFP_FN unsigned HYB_ZFP_N( hyb_zfp_encode_ints )( hyb_zfp_bw_t* bw, const HYB_ZFP_UINT* a,
                                                      unsigned size, unsigned budget,
                                                      unsigned planes )
{
	unsigned bits = budget;
	unsigned n    = 0;
	HYB_ZFP_UNROLL
	for ( unsigned p = 0; p < HYB_ZFP_PREC; p++ )
	{
		if ( bits == 0 || p >= planes ) break;
		uint64_t x = HYB_ZFP_N( hyb_zfp_plane )( a, size, HYB_ZFP_PREC - 1 - p );
		unsigned m = n < bits ? n : bits;
		bits -= m;
		if ( m < 64 )
		{
			hyb_zfp_bw_put( bw, x & ( ( (uint64_t)1 << m ) - 1u ), m );
			x >>= m;
		}
		else
		{
			hyb_zfp_bw_put( bw, x, 64 );
			x = 0;
		}
		while ( n < size && bits > 0 )
		{
			bits--;
			if ( x == 0 )
			{
				hyb_zfp_bw_put1( bw, 0 );
				break;
			}
			hyb_zfp_bw_put1( bw, 1 );
			while ( n < size - 1 && bits > 0 )
			{
				bits--;
				unsigned b = (unsigned)( x & 1u );
				hyb_zfp_bw_put1( bw, b );
				if ( b ) break;
				x >>= 1;
				n++;
			}
			x >>= 1;
			n++;
		}
	}
	return budget - bits;
}

/* The inverse of hyb_zfp_encode_ints: reads what it wrote (the same
   decisions from the same budget) into a, transposed (all of whose bits it
   sets). When the budget ends inside a run of zeros, the coefficient where
   it ended is taken as the significant one, as libzfp decodes. */
HYB_ZFP_FN void HYB_ZFP_N( hyb_zfp_decode_ints )( hyb_zfp_br_t* br, HYB_ZFP_UINT* a, unsigned size,
                                                  unsigned budget, unsigned planes )
{
	HYB_ZFP_UNROLL
	for ( unsigned i = 0; i < size; i++ ) a[i] = 0;
	unsigned bits = budget;
	unsigned n    = 0;
	HYB_ZFP_UNROLL
	for ( unsigned p = 0; p < HYB_ZFP_PREC; p++ )
	{
		if ( bits == 0 || p >= planes ) break;
		unsigned m = n < bits ? n : bits;
		bits -= m;
		uint64_t x = hyb_zfp_br_get( br, m );
		while ( n < size && bits > 0 )
		{
			bits--;
			if ( !hyb_zfp_br_get1( br ) ) break;
			while ( n < size - 1 && bits > 0 )
			{
				bits--;
				if ( hyb_zfp_br_get1( br ) ) break;
				n++;
			}
			x |= (uint64_t)1 << n;
			n++;
		}
		HYB_ZFP_N( hyb_zfp_set_plane )( a, size, HYB_ZFP_PREC - 1 - p, x );
	}
}

/* Steps 1-6 for a block of `size` = 4^dims values in v (x fastest). */
HYB_ZFP_FN void HYB_ZFP_N( hyb_zfp_encode_values )( hyb_zfp_bw_t* bw, const HYB_ZFP_SCALAR* v,
                                                    HYB_ZFP_INT* q, HYB_ZFP_UINT* u, unsigned dims,
                                                    unsigned maxbits )
{
	const unsigned size   = dims == 2 ? 16u : 64u;
	int            emax   = 0;
	unsigned       planes = HYB_ZFP_N( hyb_zfp_emax )( v, size, &emax )
	                            ? hyb_zfp_planes( HYB_ZFP_PREC, emax, dims )
	                            : 0;
	if ( planes == 0 )
	{
		hyb_zfp_bw_put1( bw, 0 );
		hyb_zfp_bw_skip( bw, maxbits - 1u );
		return;
	}
	hyb_zfp_bw_put( bw, 2u * (uint64_t)( emax + HYB_ZFP_EBIAS ) + 1u, 1 + HYB_ZFP_EBITS );
	HYB_ZFP_N( hyb_zfp_fwd_cast )( v, q, size, emax );
	if ( dims == 2 )
		HYB_ZFP_N( hyb_zfp_fwd_xform2 )( q );
	else
		HYB_ZFP_N( hyb_zfp_fwd_xform3 )( q );
	HYB_ZFP_UNROLL
	for ( unsigned i = 0; i < size; i++ )
		u[i] = ( (HYB_ZFP_UINT)q[hyb_zfp_order( dims, i )] + HYB_ZFP_NBMASK ) ^ HYB_ZFP_NBMASK;
	HYB_ZFP_N( hyb_zfp_transpose )( u, size );
	const unsigned budget = maxbits - 1u - HYB_ZFP_EBITS;
	unsigned       used   = HYB_ZFP_N( hyb_zfp_encode_ints )( bw, u, size, budget, planes );
	hyb_zfp_bw_skip( bw, budget - used );
}

/* The inverse of hyb_zfp_encode_values; reads exactly the block's bits it
   needs (never beyond its maxbits). */
HYB_ZFP_FN void HYB_ZFP_N( hyb_zfp_decode_values )( hyb_zfp_br_t* br, HYB_ZFP_SCALAR* v,
                                                    HYB_ZFP_INT* q, HYB_ZFP_UINT* u, unsigned dims,
                                                    unsigned maxbits )
{
	const unsigned size = dims == 2 ? 16u : 64u;
	if ( !hyb_zfp_br_get1( br ) )
	{
		HYB_ZFP_UNROLL
		for ( unsigned i = 0; i < size; i++ ) v[i] = 0;
		return;
	}
	int      emax   = (int)hyb_zfp_br_get( br, HYB_ZFP_EBITS ) - HYB_ZFP_EBIAS;
	unsigned planes = hyb_zfp_planes( HYB_ZFP_PREC, emax, dims );
	HYB_ZFP_N( hyb_zfp_decode_ints )( br, u, size, maxbits - 1u - HYB_ZFP_EBITS, planes );
	HYB_ZFP_N( hyb_zfp_transpose )( u, size );
	HYB_ZFP_UNROLL
	for ( unsigned i = 0; i < size; i++ )
		q[hyb_zfp_order( dims, i )] = (HYB_ZFP_INT)( ( u[i] ^ HYB_ZFP_NBMASK ) - HYB_ZFP_NBMASK );
	if ( dims == 2 )
		HYB_ZFP_N( hyb_zfp_inv_xform2 )( q );
	else
		HYB_ZFP_N( hyb_zfp_inv_xform3 )( q );
	HYB_ZFP_N( hyb_zfp_inv_cast )( q, v, size, emax );
}

/* Pads a line of 4 values p[0], p[s], p[2s], p[3s] of which the first n
   (1..4) are the field's, as libzfp pads a partial block. */
HYB_ZFP_FN void HYB_ZFP_N( hyb_zfp_pad )( HYB_ZFP_SCALAR* p, unsigned n, unsigned s )
{
	if ( n <= 1 ) p[s] = p[0];
	if ( n <= 2 ) p[2 * s] = p[s];
	if ( n <= 3 ) p[3 * s] = p[0];
}

/* The block of field f at loc (base: the field's first value) into v, padded
   along x, then y, then z. Every index is a constant once the loops unroll,
   and the values outside the field are never read. */
HYB_ZFP_FN void HYB_ZFP_N( hyb_zfp_gather )( HYB_ZFP_SCALAR* v, const hyb_zfp_field_t* f,
                                             const HYB_ZFP_SCALAR* base, hyb_zfp_loc_t loc,
                                             unsigned dims )
{
	const HYB_ZFP_SCALAR* p    = base + loc.offset;
	const unsigned        size = dims == 2 ? 16u : 64u;
	HYB_ZFP_UNROLL
	for ( unsigned i = 0; i < size; i++ )
		v[i] =
		    hyb_zfp_in_field( loc, i ) ? p[hyb_zfp_value_offset( f, dims, i )] : (HYB_ZFP_SCALAR)0;
	HYB_ZFP_UNROLL
	for ( unsigned i = 0; i < size; i += 4 ) HYB_ZFP_N( hyb_zfp_pad )( v + i, loc.nx, 1 );
	HYB_ZFP_UNROLL
	for ( unsigned z = 0; z < size; z += 16 )
	{
		HYB_ZFP_UNROLL
		for ( unsigned x = 0; x < 4; x++ ) HYB_ZFP_N( hyb_zfp_pad )( v + z + x, loc.ny, 4 );
	}
	if ( dims == 3 )
	{
		HYB_ZFP_UNROLL
		for ( unsigned i = 0; i < 16; i++ ) HYB_ZFP_N( hyb_zfp_pad )( v + i, loc.nz, 16 );
	}
}

/* The values of a decoded block v that lie in the field, to the field. */
HYB_ZFP_FN void HYB_ZFP_N( hyb_zfp_scatter )( const HYB_ZFP_SCALAR* v, const hyb_zfp_field_t* f,
                                              HYB_ZFP_SCALAR* base, hyb_zfp_loc_t loc,
                                              unsigned dims )
{
	HYB_ZFP_SCALAR* p    = base + loc.offset;
	const unsigned  size = dims == 2 ? 16u : 64u;
	HYB_ZFP_UNROLL
	for ( unsigned i = 0; i < size; i++ )
		if ( hyb_zfp_in_field( loc, i ) ) p[hyb_zfp_value_offset( f, dims, i )] = v[i];
}

/* Block b of field f (first value at `field`, dims = f->dims) to maxbits bits
   at bit `pos` of `words`, and back. The block's arrays live here, sized for
   dims, so that a caller with constant dims keeps them in registers:
   HYB_ZFP_BLOCK_ARRAYS(n) declares the n values v, their integers q and
   their coefficients u. */
#define HYB_ZFP_BLOCK_ARRAYS( n )                                                                  \
	HYB_ZFP_SCALAR v[n];                                                                           \
	HYB_ZFP_INT    q[n];                                                                           \
	HYB_ZFP_UINT   u[n]

HYB_ZFP_FN void HYB_ZFP_N( hyb_zfp_encode_at )( const hyb_zfp_field_t* f, unsigned dims,
                                                const HYB_ZFP_SCALAR* field, uint64_t* words,
                                                uint64_t pos, unsigned maxbits, uint64_t b )
{
	const hyb_zfp_loc_t loc = hyb_zfp_locate( f, dims, b );
	hyb_zfp_bw_t        bw  = hyb_zfp_bw_at( words, pos );
	if ( dims == 2 )
	{
		HYB_ZFP_BLOCK_ARRAYS( 16 );
		HYB_ZFP_N( hyb_zfp_gather )( v, f, field, loc, 2 );
		HYB_ZFP_N( hyb_zfp_encode_values )( &bw, v, q, u, 2, maxbits );
	}
	else
	{
		HYB_ZFP_BLOCK_ARRAYS( 64 );
		HYB_ZFP_N( hyb_zfp_gather )( v, f, field, loc, 3 );
		HYB_ZFP_N( hyb_zfp_encode_values )( &bw, v, q, u, 3, maxbits );
	}
	hyb_zfp_bw_finish( &bw );
}

HYB_ZFP_FN void HYB_ZFP_N( hyb_zfp_decode_at )( const hyb_zfp_field_t* f, unsigned dims,
                                                HYB_ZFP_SCALAR* field, const uint64_t* words,
                                                uint64_t pos, unsigned maxbits, uint64_t b )
{
	const hyb_zfp_loc_t loc = hyb_zfp_locate( f, dims, b );
	hyb_zfp_br_t        br  = hyb_zfp_br_at( words, pos );
	if ( dims == 2 )
	{
		HYB_ZFP_BLOCK_ARRAYS( 16 );
		HYB_ZFP_N( hyb_zfp_decode_values )( &br, v, q, u, 2, maxbits );
		HYB_ZFP_N( hyb_zfp_scatter )( v, f, field, loc, 2 );
	}
	else
	{
		HYB_ZFP_BLOCK_ARRAYS( 64 );
		HYB_ZFP_N( hyb_zfp_decode_values )( &br, v, q, u, 3, maxbits );
		HYB_ZFP_N( hyb_zfp_scatter )( v, f, field, loc, 3 );
	}
}

#undef HYB_ZFP_CAT_
#undef HYB_ZFP_CAT
#undef HYB_ZFP_N
#undef HYB_ZFP_BITS_OF
#undef HYB_ZFP_POW2
#undef HYB_ZFP_BLOCK_ARRAYS
#undef HYB_ZFP_ADD
#undef HYB_ZFP_SUB
#undef HYB_ZFP_DBL
#undef HYB_ZFP_INT_MIN
#undef HYB_ZFP_SFX
#undef HYB_ZFP_SCALAR
#undef HYB_ZFP_INT
#undef HYB_ZFP_UINT
#undef HYB_ZFP_PREC
#undef HYB_ZFP_EBITS
#undef HYB_ZFP_EBIAS
#undef HYB_ZFP_NBMASK
#undef HYB_ZFP_FRAC_BITS
#undef HYB_ZFP_EXP_MASK
#undef HYB_ZFP_INT_LIMIT
