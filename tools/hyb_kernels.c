/* SPDX-License-Identifier: BSD-3-Clause */
/* hyb-kernels: list the device kernels registered in the core and, for each, whether the
   simulated device and a CUDA plugin implement it. The plugin is only opened and asked
   for its table; no device is started, so this runs on a machine without a GPU.
   Usage: hyb-kernels [--plugin PATH] [--check] [--expect NAME,NAME...]
   --check: exit 1 when a registered kernel has no implementation on the simulated device
   or (with --plugin) in the plugin, or when a name given to --expect is not registered;
   exit 2 when the plugin cannot be used. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/hyb_device_ops.h"
#include "kernels/hyb_kernel_registry.h"
#include "kernels/sim/hyb_device_sim.h"

static int hyb_has( const hyb_device_ops_t* ops, const char* name )
{
	for ( int i = 0; ops && ops->kernel_name( i ); i++ )
		if ( strcmp( ops->kernel_name( i ), name ) == 0 ) return 1;
	return 0;
}

int main( int argc, char** argv )
{
	const char* plugin = NULL;
	const char* expect = "";
	int         check  = 0;
	for ( int i = 1; i < argc; i++ )
	{
		if ( strcmp( argv[i], "--plugin" ) == 0 && i + 1 < argc )
			plugin = argv[++i];
		else if ( strcmp( argv[i], "--check" ) == 0 )
			check = 1;
		else if ( strcmp( argv[i], "--expect" ) == 0 && i + 1 < argc )
			expect = argv[++i];
		else
		{
			fprintf( stderr, "usage: %s [--plugin PATH] [--check] [--expect NAME,NAME...]\n",
			         argv[0] );
			return 2;
		}
	}
	const hyb_device_ops_t* sim  = hyb_sim_device_ops();
	const hyb_device_ops_t* cuda = NULL;
	if ( plugin )
	{
		void* h = dlopen( plugin, RTLD_NOW | RTLD_LOCAL );
		if ( h == NULL )
		{
			fprintf( stderr, "hyb-kernels: %s\n", dlerror() );
			return 2;
		}
		hyb_plugin_entry_fn entry = (hyb_plugin_entry_fn)dlsym( h, HYB_PLUGIN_ENTRY );
		cuda                      = entry ? entry( HYB_DEVICE_ABI ) : NULL;
		if ( cuda == NULL || cuda->kernel_name == NULL )
		{
			fprintf( stderr, "hyb-kernels: %s is not a plugin of ABI %u\n", plugin,
			         HYB_DEVICE_ABI );
			return 2;
		}
	}
	int missing = 0;
	printf( "%-24s %-12s %s\n", "kernel", "sim", plugin ? cuda->name : "" );
	for ( int k = 0; k < hyb_kernel_count(); k++ )
	{
		const hyb_kernel_def_t* d = hyb_kernel_def( k );
		int on_sim = hyb_has( sim, d->name ), on_dev = cuda ? hyb_has( cuda, d->name ) : 1;
		missing += !on_sim + !on_dev;
		printf( "%-24s %-12s %s\n", d->name, on_sim ? "yes" : "MISSING",
		        !cuda    ? ""
		        : on_dev ? "yes"
		                 : "MISSING" );
	}
	/* The plugin's launchers that no registered kernel names are never used: say so. */
	for ( int i = 0; cuda && cuda->kernel_name( i ); i++ )
		if ( hyb_kernel_find( cuda->kernel_name( i ) ) == HYB_KERNEL_NONE )
			printf( "%-24s %-12s unused (no kernel of that name is registered)\n",
			        cuda->kernel_name( i ), "-" );
	for ( const char* e = expect; *e; )
	{
		size_t len = strcspn( e, "," );
		char   name[64];
		snprintf( name, sizeof name, "%.*s", (int)( len < sizeof name ? len : sizeof name - 1 ),
		          e );
		if ( hyb_kernel_find( name ) == HYB_KERNEL_NONE )
		{
			printf( "%-24s not registered\n", name );
			missing++;
		}
		e += len + ( e[len] == ',' );
	}
	printf( "%d kernels registered%s\n", hyb_kernel_count(), missing ? ", some missing" : "" );
	return check && missing ? 1 : 0;
}
