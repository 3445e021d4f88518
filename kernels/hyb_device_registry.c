/* SPDX-License-Identifier: BSD-3-Clause */
/* Stage-2 init and the core-side device layer: plugin loading, device
   selection, context pools, memory budget, workspaces, fault injection. */
#define _GNU_SOURCE
#include "kernels/hyb_device.h"

#include <dlfcn.h>
#include <libgen.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/hyb_config.h"
#include "hyb_log.h"
#include "hyb_secure.h"
#include "hyb_state.h"
#include "hyb_stats.h"
#include "hyb_thread.h"
#include "kernels/sim/hyb_device_sim.h"

typedef enum
{
	HYB_GPU_UNINIT = 0,
	HYB_GPU_READY,
	HYB_GPU_UNAVAILABLE, /* initialisation failed: hyb_reg.reason says why */
	HYB_GPU_DISABLED,    /* READY until a device error (HYB_E_DEVICE) */
	HYB_GPU_FORBIDDEN    /* after fork in a process whose parent used a device */
} hyb_gpu_state_t;

/* The one runtime state of the device layer. */
static struct
{
	atomic_int              state;
	hyb_status_t            reason; /* why not READY */
	const hyb_device_ops_t* ops;
	void*                   plugin;
	int                     n;                        /* selected devices */
	int                     ordinal[HYB_MAX_DEVICES]; /* their numbers */
	hyb_device_info_t       info[HYB_MAX_DEVICES];
	double                  budget[HYB_MAX_DEVICES];
	_Atomic double          used[HYB_MAX_DEVICES];
	hyb_dev_t*              pool[HYB_MAX_DEVICES];
	/* Each registered kernel's implementation on the backend in use (NULL:
	   none), resolved once at init: a launch is an index. */
	const void* bound[HYB_KERNEL_MAX];
	int         nbound;
	char        describe[256];
} hyb_reg; /* init and the pools: under HYB_LOCK_DEVICES */

/* ------------------------------------------------------------ faults */

/* Kinds of gated operations. A registered kernel is addressed by its id on
   top of HYB_FK_KERNEL (every launch counts as a "kernel" and as its own). */
typedef enum
{
	HYB_FK_ALLOC,
	HYB_FK_HOST_ALLOC,
	HYB_FK_REGISTER,
	HYB_FK_H2D,
	HYB_FK_D2H,
	HYB_FK_D2D,
	HYB_FK_MEMSET,
	HYB_FK_PAUSE,
	HYB_FK_KERNEL,
	HYB_FK_SYNC,
	HYB_FK_ANY,
	HYB_FK_NAMED, /* one kernel, by id: plans only, never a gate's kind */
	HYB_FK_COUNT
} hyb_fault_kind_t;

static const char* const hyb_fault_names[HYB_FK_NAMED] = { "alloc",  "host_alloc", "register",
	                                                       "h2d",    "d2h",        "d2d",
	                                                       "memset", "pause",      "kernel",
	                                                       "sync",   "any" };

#define HYB_MAX_FAULTS 16
static struct
{
	int              n;
	hyb_fault_kind_t kind[HYB_MAX_FAULTS];
	hyb_kernel_id_t  kid[HYB_MAX_FAULTS]; /* HYB_FK_NAMED */
	uint64_t         at[HYB_MAX_FAULTS];
	int              async[HYB_MAX_FAULTS];
	_Atomic uint64_t count[HYB_FK_COUNT];
	_Atomic uint64_t kcount[HYB_KERNEL_MAX];
} hyb_faults;

/* The kind named `tok`, or HYB_FK_NAMED with *kid for a registered kernel's name or
   alias; -1 when nothing has that name. "pinned" is host_alloc's older name. */
static int hyb_fault_kind_of( const char* tok, hyb_kernel_id_t* kid )
{
	for ( int k = 0; k < HYB_FK_NAMED; k++ )
		if ( strcmp( tok, hyb_fault_names[k] ) == 0 ) return k;
	if ( strcmp( tok, "pinned" ) == 0 ) return HYB_FK_HOST_ALLOC;
	*kid = hyb_kernel_find( tok );
	return *kid != HYB_KERNEL_NONE ? HYB_FK_NAMED : -1;
}

hyb_status_t hyb_device_faults_set( const char* plan )
{
	hyb_faults.n = 0;
	for ( int k = 0; k < HYB_FK_COUNT; k++ ) atomic_store( &hyb_faults.count[k], 0 );
	for ( int k = 0; k < HYB_KERNEL_MAX; k++ ) atomic_store( &hyb_faults.kcount[k], 0 );
	if ( plan == NULL || plan[0] == '\0' ) return HYB_OK;
	char buf[512];
	snprintf( buf, sizeof buf, "%s", plan );
	char* save = NULL;
	for ( char* tok = strtok_r( buf, ",", &save ); tok; tok = strtok_r( NULL, ",", &save ) )
	{
		char* colon = strchr( tok, ':' );
		if ( colon == NULL || hyb_faults.n == HYB_MAX_FAULTS || strchr( colon, '-' ) )
		{
			hyb_faults.n = 0; /* a malformed plan injects nothing at all */
			return HYB_E_PARSE;
		}
		*colon                = '\0';
		hyb_kernel_id_t kid   = HYB_KERNEL_NONE;
		int             kind  = hyb_fault_kind_of( tok, &kid );
		char*           end   = NULL;
		unsigned long   at    = strtoul( colon + 1, &end, 10 );
		int             async = 0;
		if ( end && *end == 'a' ) async = 1, end++;
		if ( kind < 0 || at == 0 || end == colon + 1 || *end != '\0' )
		{
			hyb_faults.n = 0;
			return HYB_E_PARSE;
		}
		hyb_faults.kind[hyb_faults.n]  = (hyb_fault_kind_t)kind;
		hyb_faults.kid[hyb_faults.n]   = kid;
		hyb_faults.at[hyb_faults.n]    = at;
		hyb_faults.async[hyb_faults.n] = async;
		hyb_faults.n++;
	}
	return HYB_OK;
}

/* Count one operation of `kind` (of kernel `kid` for a launch, else HYB_KERNEL_NONE);
   returns 0 (go on), 1 (fail now) or 2 (fail asynchronously). */
static int hyb_fault_hit( hyb_fault_kind_t kind, hyb_kernel_id_t kid )
{
	if ( hyb_faults.n == 0 ) return 0;
	uint64_t c   = atomic_fetch_add( &hyb_faults.count[kind], 1 ) + 1;
	uint64_t any = atomic_fetch_add( &hyb_faults.count[HYB_FK_ANY], 1 ) + 1;
	uint64_t kc =
	    kid >= 0 && kid < HYB_KERNEL_MAX ? atomic_fetch_add( &hyb_faults.kcount[kid], 1 ) + 1 : 0;
	for ( int i = 0; i < hyb_faults.n; i++ )
	{
		uint64_t at = hyb_faults.at[i], seen = 0;
		if ( hyb_faults.kind[i] == kind && at == c )
			seen = c;
		else if ( hyb_faults.kind[i] == HYB_FK_ANY && at == any )
			seen = any;
		else if ( hyb_faults.kind[i] == HYB_FK_NAMED && hyb_faults.kid[i] == kid && at == kc )
			seen = kc;
		if ( seen == 0 ) continue;
		const hyb_kernel_def_t* def = hyb_kernel_def( kid );
		HYB_LOG( HYB_LOG_INFO, "injected fault: %s%s%s #%llu%s", hyb_fault_names[kind],
		         def ? " " : "", def ? def->name : "", (unsigned long long)seen,
		         hyb_faults.async[i] ? " (asynchronous)" : "" );
		return hyb_faults.async[i] ? 2 : 1;
	}
	return 0;
}

/* Apply a fault decision to an operation of context `d`: a synchronous fault
   is returned at once; an asynchronous one skips the operation and is
   reported by the next synchronization, as a device would. Allocations and
   registrations have no asynchronous failure: they fail at once. */
#define HYB_FAULT_GATE( d, kind, kid )                                                             \
	do {                                                                                           \
		int hit_ = hyb_fault_hit( kind, kid );                                                     \
		if ( hit_ == 2 &&                                                                          \
		     ( kind == HYB_FK_ALLOC || kind == HYB_FK_HOST_ALLOC || kind == HYB_FK_REGISTER ) )    \
			hit_ = 1;                                                                              \
		if ( hit_ == 1 ) return atomic_store( &( d )->broken, 1 ), HYB_E_INJECTED;                 \
		if ( hit_ == 2 )                                                                           \
		{                                                                                          \
			int ok_ = HYB_OK;                                                                      \
			atomic_store( &( d )->broken, 1 );                                                     \
			atomic_compare_exchange_strong( &( d )->pending, &ok_, (int)HYB_E_INJECTED );          \
			return HYB_OK;                                                                         \
		}                                                                                          \
		if ( atomic_load( &( d )->pending ) != HYB_OK )                                            \
			return HYB_OK; /* the stream is already dead */                                        \
	} while ( 0 )

/* ------------------------------------------------------------ init */

/* A plugin's table is usable when it is of this ABI and fills every slot. */
static int hyb_device_ops_complete( const hyb_device_ops_t* o )
{
	return o && o->abi == HYB_DEVICE_ABI && o->name && o->init && o->info && o->ctx_create &&
	       o->ctx_destroy && o->mem_alloc && o->mem_free && o->host_alloc && o->host_free &&
	       o->host_register && o->host_unregister && o->event_create && o->event_destroy &&
	       o->event_record && o->stream_wait && o->event_sync && o->event_query &&
	       o->event_elapsed && o->stream_sync && o->copy_h2d && o->copy_d2h && o->copy_d2d &&
	       o->memset && o->stream_pause && o->kernel_find && o->kernel_name && o->launch &&
	       o->kernel_attr;
}

static void hyb_plugin_log( int level, const char* msg )
{
	HYB_LOG( level, "%s", msg );
}

/* Where the CUDA plugin lives: HYBLAS_PLUGIN, beside the object holding
   this code (libhyblas.so, or a tool), in ../lib of it, in the install
   libdir, then the loader's search path. */
static void* hyb_open_plugin( const hyb_config_t* cfg, char* why, size_t whylen )
{
	if ( cfg->plugin[0] )
	{
		void* h = dlopen( cfg->plugin, RTLD_NOW | RTLD_LOCAL );
		if ( h == NULL ) snprintf( why, whylen, "%s", dlerror() );
		return h;
	}
	char    candidates[4][1100];
	int     nc = 0;
	Dl_info info;
	if ( dladdr( (void*)&hyb_open_plugin, &info ) && info.dli_fname )
	{
		char dir[1024];
		snprintf( dir, sizeof dir, "%s", info.dli_fname );
		char* d = dirname( dir );
		snprintf( candidates[nc++], sizeof candidates[0], "%s/libhyblas_cuda.so", d );
		snprintf( candidates[nc++], sizeof candidates[0], "%s/../lib/libhyblas_cuda.so", d );
	}
#ifdef HYB_INSTALL_LIBDIR
	snprintf( candidates[nc++], sizeof candidates[0], "%s/libhyblas_cuda.so", HYB_INSTALL_LIBDIR );
#endif
	snprintf( candidates[nc++], sizeof candidates[0], "libhyblas_cuda.so" );
	why[0] = '\0';
	for ( int i = 0; i < nc; i++ )
	{
		void* h = dlopen( candidates[i], RTLD_NOW | RTLD_LOCAL );
		if ( h ) return h;
		/* Keep the most telling error: one about a file that exists. */
		const char* e = dlerror();
		if ( e && ( why[0] == '\0' || strstr( e, "No such file" ) == NULL ) )
			snprintf( why, whylen, "%s", e );
	}
	return NULL;
}

/* The first of `vars` that the launcher set to a number in [lo, 2^20), or -1
   (none; or a privileged process, whose environment steers nothing). */
static int hyb_launcher_number( const char* const* vars, int nvars, long lo )
{
	if ( hyb_secure_mode() ) return -1;
	for ( int i = 0; i < nvars; i++ )
	{
		const char* v = getenv( vars[i] );
		if ( v && *v )
		{
			char* end = NULL;
			long  r   = strtol( v, &end, 10 );
			if ( end != v && *end == '\0' && r >= lo && r < 1 << 20 ) return (int)r;
		}
	}
	return -1;
}

/* This process's rank among the MPI ranks of its node, or -1. */
static int hyb_local_rank( void )
{
	static const char* const vars[] = { "OMPI_COMM_WORLD_LOCAL_RANK",
		                                "MV2_COMM_WORLD_LOCAL_RANK",
		                                "MPI_LOCALRANKID",
		                                "PMI_LOCAL_RANK",
		                                "PALS_LOCAL_RANKID",
		                                "SLURM_LOCALID" };
	return hyb_launcher_number( vars, (int)( sizeof vars / sizeof vars[0] ), 0 );
}

/* The number of MPI ranks on this node, or -1. */
static int hyb_local_size( void )
{
	static const char* const vars[] = { "OMPI_COMM_WORLD_LOCAL_SIZE",
		                                "MV2_COMM_WORLD_LOCAL_SIZE",
		                                "MPI_LOCALNRANKS",
		                                "PMI_LOCAL_SIZE",
		                                "PALS_LOCAL_SIZE",
		                                "SLURM_NTASKS_PER_NODE" };
	return hyb_launcher_number( vars, (int)( sizeof vars / sizeof vars[0] ), 1 );
}

/* How many users device slot i shares its device with, itself included: the
   other slots of this process naming the same device (HYBLAS_GPUS=0,0), times
   the local ranks taking it when each rank takes the device of its rank
   (`rank` >= 0: ranks r with r % total equal to this rank's). Each gets that
   part of the memory free when the device is opened. */
static int hyb_device_sharers( int i, int n, int rank, int total )
{
	int slots = 0, ranks = 1;
	for ( int j = 0; j < n; j++ ) slots += hyb_reg.ordinal[j] == hyb_reg.ordinal[i];
	int size = rank >= 0 ? hyb_local_size() : -1;
	if ( size > rank ) ranks = ( size - rank % total + total - 1 ) / total;
	return slots * ranks;
}

/* Resolve every registered kernel on the backend just opened. */
static void hyb_kernels_bind_locked( void )
{
	int n = hyb_kernel_count(), have = 0;
	for ( int i = 0; i < n; i++ )
	{
		hyb_reg.bound[i] = hyb_reg.ops->kernel_find( hyb_kernel_def( i ) );
		if ( hyb_reg.bound[i] )
			have++;
		else
			HYB_LOG( HYB_LOG_INFO, "kernel %s: not on the %s device (its callers use the CPU)",
			         hyb_kernel_def( i )->name, hyb_reg.ops->name );
	}
	hyb_reg.nbound = n;
	HYB_LOG( HYB_LOG_INFO, "%d of %d registered kernels on the %s device", have, n,
	         hyb_reg.ops->name );
}

static hyb_status_t hyb_devices_init_locked( void )
{
	const hyb_config_t* cfg      = hyb_config();
	char                why[512] = "";

	if ( cfg->device == HYB_DEVICE_NONE ) return HYB_E_NO_DEVICE;
	if ( hyb_device_faults_set( cfg->fault_inject ) != HYB_OK )
		HYB_LOG( HYB_LOG_WARN,
		         "warning: HYBLAS_FAULT_INJECT=\"%s\" is malformed; no faults injected",
		         cfg->fault_inject );

	if ( cfg->device == HYB_DEVICE_SIM )
		hyb_reg.ops = hyb_sim_device_ops();
	else
	{
		hyb_reg.plugin = hyb_open_plugin( cfg, why, sizeof why );
		if ( hyb_reg.plugin == NULL )
		{
			HYB_LOG( HYB_LOG_INFO, "no CUDA plugin (%s): running on the CPU", why );
			return HYB_E_NO_DEVICE;
		}
		hyb_plugin_entry_fn entry = (hyb_plugin_entry_fn)dlsym( hyb_reg.plugin, HYB_PLUGIN_ENTRY );
		hyb_reg.ops               = entry ? entry( HYB_DEVICE_ABI ) : NULL;
		if ( !hyb_device_ops_complete( hyb_reg.ops ) )
		{
			hyb_log_always( "warning: the CUDA plugin does not match this libhyblas (ABI %u); "
			                "running on the CPU",
			                HYB_DEVICE_ABI );
			hyb_reg.ops = NULL;
			return HYB_E_ABI;
		}
	}

	hyb_device_env_t env = {
		.abi         = HYB_DEVICE_ABI,
		.log         = hyb_plugin_log,
		.sim_devices = (int)cfg->sim_devices,
		.sim_mem     = hyb_cfg_size_bytes( cfg->sim_mem, 1 << 30 ),
		.sim_bw      = cfg->sim_bw,
		.sim_flops   = cfg->sim_flops,
		.sim_latency = cfg->sim_latency,
	};
	int          total = 0;
	hyb_status_t st    = hyb_reg.ops->init( &env, &total );
	if ( st != HYB_OK || total <= 0 )
	{
		HYB_LOG( HYB_LOG_INFO, "no usable %s device (%s): running on the CPU", hyb_reg.ops->name,
		         hyb_status_string( st != HYB_OK ? st : HYB_E_NO_DEVICE ) );
		return st != HYB_OK ? st : HYB_E_NO_DEVICE;
	}

	/* Selection: explicit list, a count, all, or one device per MPI local
	   rank (several ranks on a node then share out the devices). */
	int n    = 0;
	int rank = -1; /* set when each local rank takes one device */
	if ( cfg->n_gpu_list > 0 )
	{
		for ( int i = 0; i < cfg->n_gpu_list && n < HYB_MAX_DEVICES; i++ )
		{
			if ( cfg->gpu_list[i] < total )
				hyb_reg.ordinal[n++] = cfg->gpu_list[i];
			else
				HYB_LOG( HYB_LOG_WARN, "warning: HYBLAS_GPUS names device %d, but only %d exist",
				         cfg->gpu_list[i], total );
		}
	}
	else if ( cfg->gpus_count > 0 )
		for ( int i = 0; i < cfg->gpus_count && i < total && n < HYB_MAX_DEVICES; i++ )
			hyb_reg.ordinal[n++] = i;
	else
	{
		rank = cfg->gpus_auto ? hyb_local_rank() : -1;
		if ( rank >= 0 )
			hyb_reg.ordinal[n++] = rank % total;
		else
			for ( int i = 0; i < total && n < HYB_MAX_DEVICES; i++ ) hyb_reg.ordinal[n++] = i;
	}
	if ( n == 0 ) return HYB_E_NO_DEVICE;

	for ( int i = 0; i < n; i++ )
	{
		st = hyb_reg.ops->info( hyb_reg.ordinal[i], &hyb_reg.info[i] );
		if ( st != HYB_OK ) return st;
		double share      = hyb_reg.info[i].mem_free / hyb_device_sharers( i, n, rank, total );
		hyb_reg.budget[i] = hyb_cfg_size_bytes( cfg->gpu_mem, share );
		if ( hyb_reg.budget[i] > hyb_reg.info[i].mem_free )
			hyb_reg.budget[i] = hyb_reg.info[i].mem_free;
		atomic_store( &hyb_reg.used[i], 0.0 );
	}
	hyb_reg.n = n;
	hyb_kernels_bind_locked();
	/* The ordinals say which devices this process took: under MPI, each
	   rank's report shows the GPU of its local rank. */
	char ordinals[64] = "";
	for ( int i = 0, at = 0; i < n && at < (int)sizeof ordinals - 8; i++ )
		at += snprintf( ordinals + at, sizeof ordinals - (size_t)at, "%s%d", i ? "," : "",
		                hyb_reg.ordinal[i] );
	snprintf( hyb_reg.describe, sizeof hyb_reg.describe,
	          "%s: %d x %s (device %s), budget %.1f GiB each", hyb_reg.ops->name, n,
	          hyb_reg.info[0].name, ordinals, hyb_reg.budget[0] / ( 1 << 30 ) );
	hyb_stats_set_device_note( hyb_reg.describe );
	HYB_LOG( HYB_LOG_INFO, "devices ready: %s", hyb_reg.describe );
	return HYB_OK;
}

/* fork() child hook: the parent's device contexts, streams and threads do
   not exist here. A child of a parent that used a device runs on the CPU. */
static void hyb_devices_fork_child( void )
{
	if ( atomic_load( &hyb_reg.state ) == HYB_GPU_READY )
	{
		for ( int i = 0; i < HYB_MAX_DEVICES; i++ ) hyb_reg.pool[i] = NULL; /* leaked on purpose */
		hyb_reg.n = 0;
		atomic_store( &hyb_reg.state, HYB_GPU_FORBIDDEN );
	}
}

hyb_status_t hyb_devices_ensure( void )
{
	int s = atomic_load_explicit( &hyb_reg.state, memory_order_acquire );
	if ( s == HYB_GPU_READY ) return HYB_OK;
	if ( s == HYB_GPU_FORBIDDEN ) return HYB_E_FORBIDDEN;
	if ( s == HYB_GPU_DISABLED ) return HYB_E_DEVICE;
	if ( s == HYB_GPU_UNAVAILABLE ) return hyb_reg.reason;

	hyb_lock( HYB_LOCK_DEVICES );
	if ( atomic_load( &hyb_reg.state ) == HYB_GPU_UNINIT )
	{
		hyb_state_on_fork_child( HYB_LOCK_DEVICES, hyb_devices_fork_child );
		hyb_status_t st = hyb_devices_init_locked();
		hyb_reg.reason  = st;
		atomic_store_explicit( &hyb_reg.state, st == HYB_OK ? HYB_GPU_READY : HYB_GPU_UNAVAILABLE,
		                       memory_order_release );
	}
	s = atomic_load( &hyb_reg.state );
	hyb_unlock( HYB_LOCK_DEVICES );
	return s == HYB_GPU_READY       ? HYB_OK
	       : s == HYB_GPU_FORBIDDEN ? HYB_E_FORBIDDEN
	       : s == HYB_GPU_DISABLED  ? HYB_E_DEVICE
	                                : hyb_reg.reason;
}

/* The disabled state carries its own reason: a second field written after the state
   changed would be read unsynchronised, and stale, by a hyb_devices_ensure in between. */
void hyb_devices_disable( const char* why )
{
	int expected = HYB_GPU_READY;
	if ( atomic_compare_exchange_strong( &hyb_reg.state, &expected, HYB_GPU_DISABLED ) )
	{
		hyb_log_always(
		    "warning: device disabled for the rest of the run (%s); continuing on the CPU", why );
	}
}

int hyb_devices_count( void )
{
	return atomic_load( &hyb_reg.state ) == HYB_GPU_READY ? hyb_reg.n : 0;
}

const hyb_device_info_t* hyb_devices_info( int index )
{
	return ( index >= 0 && index < hyb_reg.n ) ? &hyb_reg.info[index] : NULL;
}

const char* hyb_devices_name( void )
{
	return hyb_reg.ops ? hyb_reg.ops->name : "none";
}

double hyb_dev_budget( int index )
{
	return ( index >= 0 && index < hyb_reg.n ) ? hyb_reg.budget[index] : 0;
}

/* ------------------------------------------------------------ pool */

/* Charge `bytes` to device `index`'s budget; 0 when it would go beyond. */
static int hyb_budget_take( int index, double bytes )
{
	double expected = atomic_load( &hyb_reg.used[index] );
	do {
		if ( expected + bytes > hyb_reg.budget[index] ) return 0;
	} while ( !atomic_compare_exchange_weak( &hyb_reg.used[index], &expected, expected + bytes ) );
	return 1;
}

static void hyb_budget_give( int index, double bytes )
{
	double expected = atomic_load( &hyb_reg.used[index] );
	while ( !atomic_compare_exchange_weak( &hyb_reg.used[index], &expected, expected - bytes ) )
		;
}

hyb_status_t hyb_dev_acquire( int index, hyb_dev_t** out )
{
	if ( index < 0 || index >= hyb_devices_count() ) return HYB_E_NO_DEVICE;
	hyb_lock( HYB_LOCK_DEVICES );
	hyb_dev_t* d = hyb_reg.pool[index];
	if ( d ) hyb_reg.pool[index] = d->next;
	hyb_unlock( HYB_LOCK_DEVICES );
	if ( d == NULL )
	{
		d = calloc( 1, sizeof *d );
		if ( d == NULL ) return HYB_E_NO_MEMORY;
		d->ops          = hyb_reg.ops;
		d->index        = index;
		d->ordinal      = hyb_reg.ordinal[index];
		hyb_status_t st = d->ops->ctx_create( d->ordinal, &d->ctx );
		if ( st != HYB_OK )
		{
			free( d );
			return st;
		}
	}
	d->next = NULL;
	*out    = d;
	return HYB_OK;
}

static void hyb_dev_destroy( hyb_dev_t* d )
{
	if ( d->engine && d->engine_free ) d->engine_free( d->engine );
	/* Queued work (after an error, say) must not outlive its memory. */
	for ( int s = 0; s < HYB_DEV_STREAMS; s++ ) d->ops->stream_sync( d->ctx, s );
	if ( d->ws )
	{
		d->ops->mem_free( d->ctx, d->ws );
		hyb_budget_give( d->index, (double)d->ws_bytes );
	}
	if ( d->stage ) d->ops->host_free( d->ctx, d->stage );
	d->ops->ctx_destroy( d->ctx, atomic_load( &d->broken ) );
	free( d );
}

void hyb_dev_release( hyb_dev_t* d )
{
	if ( d == NULL ) return;
	if ( atomic_load( &d->broken ) || atomic_load( &hyb_reg.state ) != HYB_GPU_READY )
	{
		hyb_dev_destroy( d );
		return;
	}
	hyb_lock( HYB_LOCK_DEVICES );
	d->next                = hyb_reg.pool[d->index];
	hyb_reg.pool[d->index] = d;
	hyb_unlock( HYB_LOCK_DEVICES );
}

hyb_status_t hyb_dev_workspace( hyb_dev_t* d, size_t bytes, void** dptr )
{
	if ( d->ws && d->ws_bytes >= bytes )
	{
		*dptr = d->ws;
		return HYB_OK;
	}
	HYB_FAULT_GATE( d, HYB_FK_ALLOC, HYB_KERNEL_NONE );
	/* Grow: free the old buffer first so that the budget can hold the new. */
	if ( d->ws )
	{
		d->ops->mem_free( d->ctx, d->ws );
		hyb_budget_give( d->index, (double)d->ws_bytes );
		d->ws       = NULL;
		d->ws_bytes = 0;
	}
	if ( !hyb_budget_take( d->index, (double)bytes ) ) return HYB_E_NO_MEMORY;
	hyb_status_t st = d->ops->mem_alloc( d->ctx, bytes, &d->ws );
	if ( st != HYB_OK )
	{
		hyb_budget_give( d->index, (double)bytes );
		d->ws = NULL;
		return st;
	}
	d->ws_bytes = bytes;
	*dptr       = d->ws;
	return HYB_OK;
}

hyb_status_t hyb_dev_staging( hyb_dev_t* d, size_t bytes, void** hptr )
{
	if ( d->stage && d->stage_bytes >= bytes )
	{
		*hptr = d->stage;
		return HYB_OK;
	}
	HYB_FAULT_GATE( d, HYB_FK_HOST_ALLOC, HYB_KERNEL_NONE );
	if ( d->stage ) d->ops->host_free( d->ctx, d->stage );
	d->stage        = NULL;
	d->stage_bytes  = 0;
	hyb_status_t st = d->ops->host_alloc( d->ctx, bytes, &d->stage );
	if ( st != HYB_OK ) return st;
	d->stage_bytes = bytes;
	*hptr          = d->stage;
	return HYB_OK;
}

hyb_status_t hyb_dev_alloc( hyb_dev_t* d, size_t bytes, void** dptr )
{
	HYB_FAULT_GATE( d, HYB_FK_ALLOC, HYB_KERNEL_NONE );
	if ( !hyb_budget_take( d->index, (double)bytes ) ) return HYB_E_NO_MEMORY;
	hyb_status_t st = d->ops->mem_alloc( d->ctx, bytes, dptr );
	if ( st != HYB_OK )
	{
		hyb_budget_give( d->index, (double)bytes );
		*dptr = NULL;
	}
	return st;
}

void hyb_dev_free( hyb_dev_t* d, void* dptr, size_t bytes )
{
	if ( dptr == NULL ) return;
	d->ops->mem_free( d->ctx, dptr );
	hyb_budget_give( d->index, (double)bytes );
}

hyb_status_t hyb_dev_host_alloc( hyb_dev_t* d, size_t bytes, void** hptr )
{
	HYB_FAULT_GATE( d, HYB_FK_HOST_ALLOC, HYB_KERNEL_NONE );
	return d->ops->host_alloc( d->ctx, bytes, hptr );
}

void hyb_dev_host_free( hyb_dev_t* d, void* hptr )
{
	if ( hptr ) d->ops->host_free( d->ctx, hptr );
}

/* ------------------------------------------------------------ wrappers */

hyb_status_t hyb_dev_register( hyb_dev_t* d, void* p, size_t bytes )
{
	HYB_FAULT_GATE( d, HYB_FK_REGISTER, HYB_KERNEL_NONE );
	return d->ops->host_register( d->ctx, p, bytes );
}

hyb_status_t hyb_dev_unregister( hyb_dev_t* d, void* p )
{
	return d->ops->host_unregister( d->ctx, p );
}

hyb_status_t hyb_dev_event_create( hyb_dev_t* d, hyb_devent_t** ev )
{
	return d->ops->event_create( d->ctx, ev );
}

void hyb_dev_event_destroy( hyb_dev_t* d, hyb_devent_t* ev )
{
	if ( ev ) d->ops->event_destroy( d->ctx, ev );
}

hyb_status_t hyb_dev_record( hyb_dev_t* d, int stream, hyb_devent_t* ev )
{
	return d->ops->event_record( d->ctx, stream, ev );
}

hyb_status_t hyb_dev_wait( hyb_dev_t* d, int stream, hyb_devent_t* ev )
{
	return d->ops->stream_wait( d->ctx, stream, ev );
}

static hyb_status_t hyb_dev_after_sync( hyb_dev_t* d, hyb_status_t st )
{
	if ( st == HYB_OK ) st = (hyb_status_t)atomic_load( &d->pending );
	if ( st != HYB_OK && st != HYB_E_AGAIN ) atomic_store( &d->broken, 1 );
	return st;
}

hyb_status_t hyb_dev_sync( hyb_dev_t* d, hyb_devent_t* ev )
{
	if ( hyb_fault_hit( HYB_FK_SYNC, HYB_KERNEL_NONE ) )
		return atomic_store( &d->broken, 1 ), HYB_E_INJECTED;
	return hyb_dev_after_sync( d, d->ops->event_sync( d->ctx, ev ) );
}

hyb_status_t hyb_dev_query( hyb_dev_t* d, hyb_devent_t* ev )
{
	return hyb_dev_after_sync( d, d->ops->event_query( d->ctx, ev ) );
}

hyb_status_t hyb_dev_sync_polled( hyb_dev_t* d, hyb_devent_t* ev )
{
	/* a yield now and then: a simulated device's stream thread may need this core */
	for ( unsigned spins = 1; d->ops->event_query( d->ctx, ev ) == HYB_E_AGAIN; spins++ )
		if ( spins % 64 )
			hyb_cpu_relax();
		else
			sched_yield();
	/* then the sync itself: its fault gate and error reporting, at once */
	return hyb_dev_sync( d, ev );
}

hyb_status_t hyb_dev_elapsed( hyb_dev_t* d, hyb_devent_t* from, hyb_devent_t* to, double* s )
{
	return d->ops->event_elapsed( d->ctx, from, to, s );
}

hyb_status_t hyb_dev_stream_sync( hyb_dev_t* d, int stream )
{
	return hyb_dev_after_sync( d, d->ops->stream_sync( d->ctx, stream ) );
}

hyb_status_t hyb_dev_h2d( hyb_dev_t* d, int stream, void* dst, size_t dpitch, const void* src,
                          size_t spitch, size_t width, size_t rows )
{
	HYB_FAULT_GATE( d, HYB_FK_H2D, HYB_KERNEL_NONE );
	return d->ops->copy_h2d( d->ctx, stream, dst, dpitch, src, spitch, width, rows );
}

hyb_status_t hyb_dev_d2h( hyb_dev_t* d, int stream, void* dst, size_t dpitch, const void* src,
                          size_t spitch, size_t width, size_t rows )
{
	HYB_FAULT_GATE( d, HYB_FK_D2H, HYB_KERNEL_NONE );
	return d->ops->copy_d2h( d->ctx, stream, dst, dpitch, src, spitch, width, rows );
}

hyb_status_t hyb_dev_d2d( hyb_dev_t* d, int stream, void* dst, size_t dpitch, const void* src,
                          size_t spitch, size_t width, size_t rows )
{
	HYB_FAULT_GATE( d, HYB_FK_D2D, HYB_KERNEL_NONE );
	return d->ops->copy_d2d( d->ctx, stream, dst, dpitch, src, spitch, width, rows );
}

hyb_status_t hyb_dev_memset( hyb_dev_t* d, int stream, void* dptr, int value, size_t bytes )
{
	HYB_FAULT_GATE( d, HYB_FK_MEMSET, HYB_KERNEL_NONE );
	return d->ops->memset( d->ctx, stream, dptr, value, bytes );
}

hyb_status_t hyb_dev_pause( hyb_dev_t* d, int stream, uint64_t ns )
{
	if ( ns == 0 ) return HYB_OK;
	HYB_FAULT_GATE( d, HYB_FK_PAUSE, HYB_KERNEL_NONE );
	return d->ops->stream_pause( d->ctx, stream, ns );
}

/* ------------------------------------------------------------ kernels */

static inline const void* hyb_kernel_impl( hyb_kernel_id_t id )
{
	return id >= 0 && id < hyb_reg.nbound && atomic_load( &hyb_reg.state ) == HYB_GPU_READY
	           ? hyb_reg.bound[id]
	           : NULL;
}

int hyb_devices_kernel_supported( hyb_kernel_id_t id )
{
	return hyb_kernel_impl( id ) != NULL;
}

hyb_status_t hyb_dev_launch( hyb_dev_t* d, int stream, hyb_kernel_id_t id, const void* args )
{
	const void* impl = hyb_kernel_impl( id );
	if ( impl == NULL ) return HYB_E_NOT_SUPPORTED;
	const hyb_kernel_def_t* def = hyb_kernel_def( id );
	if ( args == NULL ) return HYB_E_INVALID;
	if ( def->check )
	{
		hyb_status_t st = def->check( args );
		if ( st != HYB_OK ) return st;
	}
	HYB_FAULT_GATE( d, HYB_FK_KERNEL, id );
	return d->ops->launch( d->ctx, stream, impl, args, def->args_size );
}

hyb_status_t hyb_dev_kernel_attr( hyb_dev_t* d, hyb_kernel_id_t id, int block, size_t smem,
                                  hyb_kernel_attr_t* out )
{
	memset( out, 0, sizeof *out );
	const void* impl = hyb_kernel_impl( id );
	if ( impl == NULL ) return HYB_E_NOT_SUPPORTED;
	if ( block <= 0 ) return HYB_E_INVALID;
	return d->ops->kernel_attr( d->ordinal, impl, block, smem, out );
}

/* ------------------------------------------------------------ lifecycle */

void hyb_devices_reset_for_test( void )
{
	for ( int i = 0; i < HYB_MAX_DEVICES; i++ )
	{
		hyb_dev_t* d = hyb_reg.pool[i];
		while ( d )
		{
			hyb_dev_t* next = d->next;
			hyb_dev_destroy( d );
			d = next;
		}
		hyb_reg.pool[i] = NULL;
	}
	hyb_reg.n      = 0;
	hyb_reg.nbound = 0;
	hyb_reg.ops    = NULL;
	atomic_store( &hyb_reg.state, HYB_GPU_UNINIT );
}
