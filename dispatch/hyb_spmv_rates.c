/* SPDX-License-Identifier: BSD-3-Clause */
/* The SpMV rates of this process: defaults, profile, calibration file, and the refits the
   learning store keeps. */
#define _GNU_SOURCE
#include "dispatch/hyb_spmv_rates.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_file.h"
#include "hyb_log.h"
#include "hyb_state.h"
#include "policies/hyb_learn.h"
#include "policies/hyb_profile.h"

/* One table for reading and writing the file: key, field offset. */
#define HYB_RF( f )                                                                                \
	{                                                                                              \
#f, offsetof( hyb_spmv_rates_t, f )                                                        \
	}
static const struct
{
	const char* key;
	size_t      off;
} hyb_rates_keys[] = {
	HYB_RF( cpu_csr_bw ),       HYB_RF( cpu_coo_bw ), HYB_RF( cpu_call_s ),
	HYB_RF( host_bw ),          HYB_RF( conv_rate ),  HYB_RF( gpu_csr_bw ),
	HYB_RF( gpu_ell_bw ),       HYB_RF( gpu_dia_bw ), HYB_RF( gpu_call_s ),
	HYB_RF( h2d_bw ),           HYB_RF( d2h_bw ),     HYB_RF( gpu_mem ),
	HYB_RF( overlap ),          HYB_RF( margin ),     HYB_RF( h2d_host_traffic ),
	HYB_RF( d2h_host_traffic ), HYB_RF( stats_rate ), HYB_RF( core_bw ),
	HYB_RF( gpu_step_s ),
};
#define HYB_RATES_NKEYS ( sizeof hyb_rates_keys / sizeof hyb_rates_keys[0] )

/* The store's key of one of the family's classes (hyb_policy_spmv.h). */
static hyb_learn_key_t hyb_spmv_learn_key( int cls )
{
	return ( hyb_learn_key_t ){ hyb_policy_spmv_learn_op(), (uint64_t)cls };
}

/* Measured calls shorter than this are dominated by noise and not refitted. */
#define HYB_REFIT_MIN_S 50e-6

/* Under HYB_LOCK_SPMV_RATES; the refits are in the learning store. */
static struct
{
	int              loaded;
	hyb_spmv_rates_t base;
} hyb_rates;

void hyb_spmv_rates_path( char* buf, size_t len )
{
	hyb_profile_sibling( ".spmv", buf, len );
}

hyb_status_t hyb_spmv_rates_read( const char* path, hyb_spmv_rates_t* r )
{
	char*        text = NULL;
	hyb_status_t st   = hyb_file_read( path, HYB_FILE_READ_MAX, &text, NULL, NULL, 0 );
	if ( st != HYB_OK ) return st == HYB_E_NO_MEMORY ? st : HYB_E_IO;
	const char* cur = text;
	char        line[512];
	int         no = 0, overlong = 0;
	while ( hyb_file_next_line( &cur, line, sizeof line, &overlong, &no ) )
	{
		if ( overlong )
		{
			/* cut short, a number would read as another number */
			HYB_LOG( HYB_LOG_WARN, "warning: %s:%d: line too long; ignored", path, no );
			continue;
		}
		char* s = line;
		while ( *s == ' ' || *s == '\t' ) s++;
		if ( *s == '#' || *s == '\r' || *s == '\0' ) continue;
		char* eq = strchr( s, '=' );
		if ( eq == NULL )
		{
			HYB_LOG( HYB_LOG_WARN, "warning: %s:%d: not a key = value line", path, no );
			continue;
		}
		char* ke = eq;
		while ( ke > s && ( ke[-1] == ' ' || ke[-1] == '\t' ) ) ke--;
		*ke          = '\0';
		char*  end   = NULL;
		double v     = strtod( eq + 1, &end );
		int    found = 0;
		while ( end && ( *end == ' ' || *end == '\t' || *end == '\r' ) ) end++;
		for ( size_t k = 0; k < HYB_RATES_NKEYS; k++ )
			if ( strcmp( s, hyb_rates_keys[k].key ) == 0 )
			{
				found = 1;
				if ( end == eq + 1 || *end != '\0' || !isfinite( v ) || v < 0 )
					HYB_LOG( HYB_LOG_WARN, "warning: %s:%d: bad value for %s", path, no, s );
				else
					*(double*)( (char*)r + hyb_rates_keys[k].off ) = v;
			}
		if ( !found ) HYB_LOG( HYB_LOG_WARN, "warning: %s:%d: unknown key %s", path, no, s );
	}
	free( text );
	return HYB_OK;
}

hyb_status_t hyb_spmv_rates_write( const char* path, const hyb_spmv_rates_t* r, const char* header )
{
	char*  text = NULL;
	size_t len  = 0;
	FILE*  f    = open_memstream( &text, &len );
	if ( f == NULL ) return HYB_E_IO;
	fprintf( f, "# %s\n", header ? header : "hyblas SpMV rates" );
	for ( size_t k = 0; k < HYB_RATES_NKEYS; k++ )
		fprintf( f, "%s = %.6g\n", hyb_rates_keys[k].key,
		         *(const double*)( (const char*)r + hyb_rates_keys[k].off ) );
	hyb_status_t st = fclose( f ) == 0 ? hyb_file_replace( path, text, len, 0644 ) : HYB_E_IO;
	free( text );
	return st == HYB_OK ? HYB_OK : HYB_E_IO;
}

/* Base rates: defaults, then the profile's measured transfer and copy rates, then the
   persisted file (which a calibration wrote for this machine). */
static void hyb_rates_read_base( hyb_spmv_rates_t* out )
{
	hyb_spmv_rates_t r;
	hyb_policy_spmv_default_rates( &r );
	const hyb_profile_t* p = hyb_profile();
	if ( p->h2d_pinned > 0 ) r.h2d_bw = p->h2d_pinned;
	if ( p->d2h_pinned > 0 ) r.d2h_bw = p->d2h_pinned;
	if ( p->launch_latency > 0 ) r.gpu_step_s = p->launch_latency;
	char path[1100];
	hyb_spmv_rates_path( path, sizeof path );
	if ( path[0] && hyb_spmv_rates_read( path, &r ) == HYB_OK )
		HYB_LOG( HYB_LOG_INFO, "SpMV rates read from %s", path );
	*out = r;
}

/* The base rates, loaded on first use. The file is read without the lock (a fork() must
   not wait for file input); the first thread to finish installs what it read. */
static hyb_spmv_rates_t hyb_rates_base_copy( void )
{
	hyb_lock( HYB_LOCK_SPMV_RATES );
	int              loaded = hyb_rates.loaded;
	hyb_spmv_rates_t r      = hyb_rates.base;
	hyb_unlock( HYB_LOCK_SPMV_RATES );
	if ( loaded ) return r;
	hyb_rates_read_base( &r );
	hyb_lock( HYB_LOCK_SPMV_RATES );
	if ( hyb_rates.loaded )
		r = hyb_rates.base;
	else
	{
		hyb_rates.base   = r;
		hyb_rates.loaded = 1;
	}
	hyb_unlock( HYB_LOCK_SPMV_RATES );
	return r;
}

void hyb_spmv_rates_base( hyb_spmv_rates_t* out )
{
	*out = hyb_rates_base_copy();
}

void hyb_spmv_rates_set_base( const hyb_spmv_rates_t* r )
{
	hyb_lock( HYB_LOCK_SPMV_RATES );
	if ( r )
	{
		hyb_rates.base   = *r;
		hyb_rates.loaded = 1;
	}
	else
		hyb_rates.loaded = 0;
	hyb_unlock( HYB_LOCK_SPMV_RATES );
	hyb_learn_forget( hyb_policy_spmv_learn_op() );
}

void hyb_spmv_rates_get( const hyb_spmv_xfer_t* xf, hyb_spmv_rates_t* out )
{
	hyb_spmv_rates_t r = hyb_rates_base_copy();

	/* x is staged: the host copy into page-locked memory and the DMA run chunk by chunk,
	   so the slower of the two sets the rate. y registered goes at the DMA rate. */
	const hyb_profile_t* p    = hyb_profile();
	double               copy = p->host_copy > 0 ? p->host_copy : r.host_bw;
	r.h2d_bw                  = fmin( r.h2d_bw, copy );
	if ( !xf || !xf->y_registered ) r.d2h_bw = fmin( r.d2h_bw, copy );
	/* host memory traffic per byte moved: staged 3 (read, write, DMA), registered 1 */
	r.h2d_host_traffic = 3.0;
	r.d2h_host_traffic = xf && xf->y_registered ? 1.0 : 3.0;
	/* Pipelined by row blocks: the stages overlap, but the x copy, both DMA directions and
	   the CPU share one memory bus; the refit below corrects what this leaves. */
	r.overlap = ( xf && xf->pipelined ) ? 0.8 : 0.0;

	hyb_learn_key_t  keys[HYB_SPMV_LEARN_SPAN + HYB_SPMV_SPANS];
	hyb_learn_rate_t got[HYB_SPMV_LEARN_SPAN + HYB_SPMV_SPANS][HYB_LEARN_SLOTS];
	for ( int k = 0; k < HYB_SPMV_LEARN_SPAN + HYB_SPMV_SPANS; k++ )
		keys[k] = hyb_spmv_learn_key( k );
	hyb_learn_rates_of( keys, HYB_SPMV_LEARN_SPAN + HYB_SPMV_SPANS, got );
	if ( got[HYB_SPMV_LEARN_CPU][HYB_LEARN_CPU].samples )
		r.cpu_csr_bw = got[HYB_SPMV_LEARN_CPU][HYB_LEARN_CPU].value;
	if ( got[HYB_SPMV_LEARN_CPU][HYB_LEARN_OTHER].samples )
		r.cpu_coo_bw = got[HYB_SPMV_LEARN_CPU][HYB_LEARN_OTHER].value;
	/* A kind not measured yet borrows the scale of the same kernel in the other setting (the
	   device alone, or beside a CPU side): the kernel's rate is most of what they share.
	   Failing that, the mean of the measured kinds: what they share is the transfers and
	   the device's latencies, and a kind left at 1 would look faster than every measured
	   one (observed: auto took an unmeasured ELL or CSR over the measured, faster format). */
	double own[HYB_SPMV_SPANS], sum = 0.0;
	int    n = 0;
	for ( int k = 0; k < HYB_SPMV_SPANS; k++ )
	{
		const hyb_learn_rate_t* g = &got[HYB_SPMV_LEARN_SPAN + k][HYB_LEARN_GPU];
		own[k]                    = g->samples ? g->value : 0.0;
		if ( own[k] > 0 )
		{
			sum += own[k];
			n++;
		}
	}
	for ( int k = 0; k < HYB_SPMV_SPANS; k++ )
	{
		double twin     = own[( k + HYB_SPMV_SPAN_ROWSPLIT ) % HYB_SPMV_SPANS];
		r.span_scale[k] = own[k] > 0 ? own[k] : twin > 0 ? twin : n > 0 ? sum / n : 0.0;
	}
	if ( got[HYB_SPMV_LEARN_CALL][HYB_LEARN_GPU].samples )
		r.gpu_call_s = got[HYB_SPMV_LEARN_CALL][HYB_LEARN_GPU].value;
	*out = r;
}

/* Fold a measured value into (class, slot) of the store with the family's weight. */
static void hyb_refit_note( int cls, hyb_learn_slot_t slot, double x )
{
	hyb_learn_note( hyb_spmv_learn_key( cls ), slot, x, HYB_LEARN_WEIGHT_SPMV );
}

void hyb_spmv_rates_refit_cpu( double bytes, double seconds )
{
	if ( seconds >= HYB_REFIT_MIN_S && bytes > 0 )
		hyb_refit_note( HYB_SPMV_LEARN_CPU, HYB_LEARN_CPU, bytes / seconds );
}

void hyb_spmv_rates_refit_coo( double bytes, double seconds )
{
	if ( seconds >= HYB_REFIT_MIN_S && bytes > 0 )
		hyb_refit_note( HYB_SPMV_LEARN_CPU, HYB_LEARN_OTHER, bytes / seconds );
}

void hyb_spmv_rates_refit_call( double seconds )
{
	if ( seconds >= 0 && isfinite( seconds ) )
		hyb_refit_note( HYB_SPMV_LEARN_CALL, HYB_LEARN_GPU, seconds );
}

void hyb_spmv_rates_refit_gpu( hyb_spmv_span_t kind, double scale, double pred, double meas )
{
	/* a span is measured on the device's clock: short ones are not noise-dominated */
	if ( (unsigned)kind >= HYB_SPMV_SPANS || !( meas > 0 ) || !isfinite( meas ) || !( pred > 0 ) ||
	     !isfinite( pred ) || !( scale > 0 ) || !isfinite( scale ) )
		return;
	/* The measured span over the unscaled prediction: a resident plan keeps the prediction
	   it was made with while the scale moves on, so the scale it used is divided out. */
	double x = scale * meas / pred;
	hyb_refit_note( HYB_SPMV_LEARN_SPAN + (int)kind, HYB_LEARN_GPU, fmin( fmax( x, 0.2 ), 5.0 ) );
}
