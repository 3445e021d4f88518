/* SPDX-License-Identifier: BSD-3-Clause */
/* The learning store (see hyb_learn.h): the table of rates, its file, the process store and
   the measured choices. */
#define _GNU_SOURCE
#include "policies/hyb_learn.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hyb_file.h"
#include "hyb_log.h"
#include "hyb_secure.h"
#include "hyb_state.h"
#include "policies/hyb_profile.h"

#define HYB_LEARN_HEADER "# hyblas learning store 1"

static const char* const hyb_learn_slot_names[HYB_LEARN_SLOTS] = { "cpu", "gpu", "other" };

/* ------------------------------------------------------------ the table */

static int hyb_learn_value_ok( double v )
{
	return isfinite( v ) && v >= 0 && v < HYB_LEARN_VALUE_MAX;
}

static int hyb_learn_slot_ok( hyb_learn_slot_t s )
{
	return (unsigned)s < HYB_LEARN_SLOTS;
}

void hyb_learn_table_init( hyb_learn_table_t* t )
{
	if ( t ) memset( t, 0, sizeof *t );
}

static hyb_learn_entry_t* hyb_learn_find( const hyb_learn_table_t* t, hyb_learn_key_t key )
{
	for ( int k = 0; k < t->count; k++ )
		if ( t->e[k].key.op == key.op && t->e[k].key.cls == key.cls )
			return (hyb_learn_entry_t*)&t->e[k];
	return NULL;
}

/* The entry of key, made empty when missing; NULL when the table is full. */
static hyb_learn_entry_t* hyb_learn_find_or_add( hyb_learn_table_t* t, hyb_learn_key_t key )
{
	hyb_learn_entry_t* e = hyb_learn_find( t, key );
	if ( e || t->count >= HYB_LEARN_TABLE_MAX ) return e;
	e = &t->e[t->count++];
	memset( e, 0, sizeof *e );
	e->key = key;
	return e;
}

hyb_learn_rate_t hyb_learn_table_rate( const hyb_learn_table_t* t, hyb_learn_key_t key,
                                       hyb_learn_slot_t slot )
{
	hyb_learn_rate_t none = { 0, 0 };
	if ( t == NULL || !hyb_learn_slot_ok( slot ) ) return none;
	const hyb_learn_entry_t* e = hyb_learn_find( t, key );
	return e && e->rate[slot].samples > 0 ? e->rate[slot] : none;
}

/* The slot's rate, made when missing; NULL for a bad argument (*st says which). */
static hyb_learn_rate_t* hyb_learn_slot_of( hyb_learn_table_t* t, hyb_learn_key_t key,
                                            hyb_learn_slot_t slot, double w, hyb_status_t* st )
{
	*st = HYB_E_INVALID;
	if ( t == NULL || !hyb_learn_slot_ok( slot ) || !( w > 0 && w <= 1 ) ) return NULL;
	hyb_learn_entry_t* e = hyb_learn_find_or_add( t, key );
	*st                  = e ? HYB_OK : HYB_E_NO_MEMORY;
	return e ? &e->rate[slot] : NULL;
}

static void hyb_learn_count_sample( hyb_learn_rate_t* r )
{
	if ( r->samples < INT64_MAX ) r->samples++;
}

hyb_status_t hyb_learn_table_fold( hyb_learn_table_t* t, hyb_learn_key_t key, hyb_learn_slot_t slot,
                                   double sample, double w )
{
	if ( !hyb_learn_value_ok( sample ) ) return HYB_E_INVALID;
	hyb_status_t      st;
	hyb_learn_rate_t* r = hyb_learn_slot_of( t, key, slot, w, &st );
	if ( r == NULL ) return st;
	r->value = hyb_learn_fold( r->value, r->samples > 0, sample, w );
	hyb_learn_count_sample( r );
	return HYB_OK;
}

hyb_status_t hyb_learn_table_ratio( hyb_learn_table_t* t, hyb_learn_key_t key,
                                    hyb_learn_slot_t slot, double ratio, double w, double lo,
                                    double hi )
{
	if ( !hyb_learn_value_ok( ratio ) || !( ratio > 0 ) ) return HYB_E_INVALID;
	hyb_status_t      st;
	hyb_learn_rate_t* r = hyb_learn_slot_of( t, key, slot, w, &st );
	if ( r == NULL ) return st;
	double old = r->samples > 0 ? r->value : 1.0;
	double v   = hyb_learn_fold( old, 1, old * ratio, w );
	r->value   = fmin( fmax( v, lo ), hi );
	hyb_learn_count_sample( r );
	return HYB_OK;
}

int hyb_learn_table_count( const hyb_learn_table_t* t )
{
	int n = 0;
	for ( int k = 0; t && k < t->count; k++ )
		for ( int s = 0; s < HYB_LEARN_SLOTS; s++ ) n += t->e[k].rate[s].samples > 0;
	return t ? n + t->npending : 0;
}

void hyb_learn_table_forget( hyb_learn_table_t* t, hyb_op_id_t op )
{
	int j = 0;
	for ( int k = 0; k < t->count; k++ )
		if ( t->e[k].key.op != op ) t->e[j++] = t->e[k];
	t->count = j;
}

/* ------------------------------------------------------------ the file */

/* Store one read value: into the entry of a registered operation, else as a pending line
   (a later duplicate replaces an earlier one either way). 0 when there is no room. */
static int hyb_learn_put( hyb_learn_table_t* t, const char* op, uint64_t cls, hyb_learn_slot_t slot,
                          hyb_learn_rate_t r )
{
	hyb_op_id_t id = hyb_op_find( op );
	if ( id != HYB_OP_NONE )
	{
		hyb_learn_entry_t* e = hyb_learn_find_or_add( t, ( hyb_learn_key_t ){ id, cls } );
		if ( e ) e->rate[slot] = r;
		return e != NULL;
	}
	hyb_learn_line_t* l = NULL;
	for ( int k = 0; k < t->npending && !l; k++ )
		if ( t->p[k].cls == cls && t->p[k].slot == slot && strcmp( t->p[k].op, op ) == 0 )
			l = &t->p[k];
	if ( l == NULL && t->npending >= HYB_LEARN_PENDING_MAX ) return 0;
	if ( l == NULL ) l = &t->p[t->npending++];
	snprintf( l->op, sizeof l->op, "%s", op );
	l->cls  = cls;
	l->slot = slot;
	l->rate = r;
	return 1;
}

/* One line "learn op class slot value samples" with strict token checks. */
static int hyb_learn_parse_line( char* line, hyb_learn_table_t* t )
{
	char* save = NULL;
	char* tok[7];
	int   nt = 0;
	for ( char* s = strtok_r( line, " \t\r", &save ); s; s = strtok_r( NULL, " \t\r", &save ) )
	{
		if ( nt == 7 ) return 0;
		tok[nt++] = s;
	}
	if ( nt != 6 || strcmp( tok[0], "learn" ) != 0 || !hyb_op_name_ok( tok[1] ) ) return 0;
	size_t cl = strlen( tok[2] );
	if ( cl < 3 || cl > 18 || tok[2][0] != '0' || tok[2][1] != 'x' ) return 0;
	char* end = NULL;
	errno     = 0;
	if ( !( ( tok[2][2] >= '0' && tok[2][2] <= '9' ) || ( tok[2][2] >= 'a' && tok[2][2] <= 'f' ) ) )
		return 0; /* strtoull would take a sign or blanks */
	unsigned long long cls = strtoull( tok[2] + 2, &end, 16 );
	if ( errno != 0 || *end != '\0' ) return 0;
	int slot = 0;
	while ( slot < HYB_LEARN_SLOTS && strcmp( tok[3], hyb_learn_slot_names[slot] ) != 0 ) slot++;
	if ( slot == HYB_LEARN_SLOTS ) return 0;
	errno    = 0;
	double v = strtod( tok[4], &end );
	if ( errno != 0 || end == tok[4] || *end != '\0' || !hyb_learn_value_ok( v ) ) return 0;
	errno             = 0;
	long long samples = strtoll( tok[5], &end, 10 );
	if ( errno != 0 || end == tok[5] || *end != '\0' || samples < 1 ) return 0;
	return hyb_learn_put( t, tok[1], (uint64_t)cls, (hyb_learn_slot_t)slot,
	                      ( hyb_learn_rate_t ){ v, (int64_t)samples } );
}

hyb_status_t hyb_learn_table_read( const char* path, hyb_learn_table_t* t )
{
	if ( t == NULL ) return HYB_E_INVALID;
	hyb_learn_table_init( t );
	if ( path == NULL ) return HYB_E_INVALID;
	char*        text = NULL;
	hyb_status_t st   = hyb_file_read( path, HYB_FILE_READ_MAX, &text, NULL, NULL, 0 );
	if ( st != HYB_OK ) return st == HYB_E_NO_MEMORY ? st : HYB_E_IO;

	const char* cur = text;
	char        line[256];
	int         rejected = 0, overlong = 0, no = 0;
	while ( hyb_file_next_line( &cur, line, sizeof line, &overlong, &no ) )
	{
		if ( no == 1 )
		{
			/* Not the store's file: nothing in it is taken. */
			size_t n = strlen( line );
			if ( overlong || strncmp( line, HYB_LEARN_HEADER, strlen( HYB_LEARN_HEADER ) ) != 0 ||
			     strspn( line + strlen( HYB_LEARN_HEADER ), " \t\r" ) !=
			         n - strlen( HYB_LEARN_HEADER ) )
			{
				free( text );
				return HYB_E_PARSE;
			}
			continue;
		}
		if ( overlong )
		{
			rejected = 1; /* dropped whole: cut short, a number would read as another */
			continue;
		}
		char* s = line;
		while ( *s == ' ' || *s == '\t' ) s++;
		if ( *s == '#' || *s == '\r' || *s == '\0' ) continue;
		if ( !hyb_learn_parse_line( s, t ) ) rejected = 1;
	}
	free( text );
	/* An empty file is an empty table. */
	return rejected ? HYB_E_PARSE : HYB_OK;
}

hyb_status_t hyb_learn_table_write( const char* path, const hyb_learn_table_t* t )
{
	if ( path == NULL || t == NULL || t->count < 0 || t->count > HYB_LEARN_TABLE_MAX ||
	     t->npending < 0 || t->npending > HYB_LEARN_PENDING_MAX )
		return HYB_E_INVALID;
	char*  text = NULL;
	size_t len  = 0;
	FILE*  f    = open_memstream( &text, &len );
	if ( f == NULL ) return HYB_E_IO;
	int ok = fprintf( f, "%s\n# learn <operation> <class> <slot> <value> <samples>\n",
	                  HYB_LEARN_HEADER ) > 0;
	for ( int k = 0; k < t->count && ok; k++ )
	{
		const hyb_learn_entry_t* e    = &t->e[k];
		const char*              name = hyb_op_name_of( e->key.op );
		for ( int s = 0; s < HYB_LEARN_SLOTS && ok && name; s++ )
		{
			const hyb_learn_rate_t* r = &e->rate[s];
			if ( r->samples < 1 || !hyb_learn_value_ok( r->value ) ) continue; /* never garbage */
			ok =
			    fprintf( f, "learn %s 0x%llx %s %.17g %lld\n", name, (unsigned long long)e->key.cls,
			             hyb_learn_slot_names[s], r->value, (long long)r->samples ) > 0;
		}
	}
	for ( int k = 0; k < t->npending && ok; k++ )
	{
		const hyb_learn_line_t* l = &t->p[k];
		if ( !hyb_op_name_ok( l->op ) || !hyb_learn_slot_ok( l->slot ) || l->rate.samples < 1 ||
		     !hyb_learn_value_ok( l->rate.value ) )
			continue;
		ok =
		    fprintf( f, "learn %s 0x%llx %s %.17g %lld\n", l->op, (unsigned long long)l->cls,
		             hyb_learn_slot_names[l->slot], l->rate.value, (long long)l->rate.samples ) > 0;
	}
	ok = ( fclose( f ) == 0 ) && ok;
	/* A new file renamed into place (core/hyb_file.h): never written through a link planted
	   at the temporary name. */
	hyb_status_t st = ok ? hyb_file_replace( path, text, len, 0644 ) : HYB_E_IO;
	free( text );
	return st == HYB_OK || st == HYB_E_FORBIDDEN ? st : HYB_E_IO;
}

/* ------------------------------------------------------------ the process store */

#define HYB_LEARN_PERSIST_MAX 8

typedef struct
{
	hyb_learn_key_t    key;
	uint64_t           lru; /* 0: free */
	hyb_learn_choice_t c;
} hyb_learn_choice_slot_t;

/* Under HYB_LOCK_LEARN. The file is read and written outside the lock: a fork() (which
   takes every lock first) must not wait for file I/O, and a child must never find the lock
   held by a writer that does not exist there. */
static struct
{
	hyb_learn_table_t       tab;
	int                     npersist;
	hyb_op_id_t             persist[HYB_LEARN_PERSIST_MAX];
	int                     loaded;
	char                    path[HYB_FILE_PATH_MAX];
	int                     writing; /* a thread is writing the file */
	int                     dirty;   /* persistent rates changed since the last snapshot */
	uint64_t                clock;
	hyb_learn_choice_slot_t choice[HYB_LEARN_CHOICES_MAX];
} hyb_ls;

void hyb_learn_path( char* out, size_t len )
{
	hyb_profile_sibling( ".learn", out, len );
}

static int hyb_learn_persistent( hyb_op_id_t op )
{
	for ( int k = 0; k < hyb_ls.npersist; k++ )
		if ( hyb_ls.persist[k] == op ) return 1;
	return 0;
}

/* Move the pending lines of op into the table (the lock is held). */
static void hyb_learn_adopt( hyb_op_id_t op )
{
	const char* name = hyb_op_name_of( op );
	int         j    = 0;
	for ( int k = 0; k < hyb_ls.tab.npending; k++ )
	{
		hyb_learn_line_t*  l = &hyb_ls.tab.p[k];
		hyb_learn_entry_t* e = NULL;
		if ( name && strcmp( l->op, name ) == 0 )
			e = hyb_learn_find_or_add( &hyb_ls.tab, ( hyb_learn_key_t ){ op, l->cls } );
		if ( e )
			e->rate[l->slot] = l->rate;
		else
			hyb_ls.tab.p[j++] = *l;
	}
	hyb_ls.tab.npending = j;
}

/* Replace the persistent rates by those of file table f (the lock is held): what f holds
   of an operation not declared persistent stays pending, written back but not used. */
static void hyb_learn_install( hyb_learn_table_t* f )
{
	for ( int k = 0; k < hyb_ls.npersist; k++ )
		hyb_learn_table_forget( &hyb_ls.tab, hyb_ls.persist[k] );
	hyb_ls.tab.npending = 0;
	for ( int k = 0; k < f->npending; k++ ) hyb_ls.tab.p[hyb_ls.tab.npending++] = f->p[k];
	for ( int k = 0; k < f->count; k++ )
	{
		const hyb_learn_entry_t* fe   = &f->e[k];
		int                      keep = hyb_learn_persistent( fe->key.op );
		hyb_learn_entry_t*       e    = keep ? hyb_learn_find_or_add( &hyb_ls.tab, fe->key ) : NULL;
		if ( e )
		{
			memcpy( e->rate, fe->rate, sizeof e->rate );
			continue;
		}
		const char* name = hyb_op_name_of( fe->key.op );
		for ( int s = 0; s < HYB_LEARN_SLOTS && name; s++ )
			if ( fe->rate[s].samples > 0 && hyb_ls.tab.npending < HYB_LEARN_PENDING_MAX )
			{
				hyb_learn_line_t* l = &hyb_ls.tab.p[hyb_ls.tab.npending++];
				snprintf( l->op, sizeof l->op, "%s", name );
				l->cls  = fe->key.cls;
				l->slot = (hyb_learn_slot_t)s;
				l->rate = fe->rate[s];
			}
	}
}

/* Take the lock; for a persistent operation, with the table holding the current file,
   read (when not loaded yet, or HYBLAS_PROFILE now names another file) before taking it. */
static void hyb_learn_lock_for( hyb_op_id_t op )
{
	hyb_lock( HYB_LOCK_LEARN );
	if ( !hyb_learn_persistent( op ) ) return;
	char path[sizeof hyb_ls.path];
	hyb_learn_path( path, sizeof path );
	if ( hyb_ls.loaded && strcmp( path, hyb_ls.path ) == 0 ) return;
	hyb_unlock( HYB_LOCK_LEARN );

	hyb_learn_table_t* f  = malloc( sizeof *f );
	hyb_status_t       st = HYB_E_IO;
	if ( f ) hyb_learn_table_init( f );
	if ( f && path[0] ) st = hyb_learn_table_read( path, f );
	if ( st == HYB_E_PARSE )
		hyb_log_once( hyb_hash_str( path, 0x6c726e ), HYB_LOG_WARN,
		              "warning: %s: some lines (or the whole file) are not learned rates and "
		              "were ignored (the file is rewritten after the next measured call)",
		              path );
	else if ( st == HYB_OK )
		HYB_LOG( HYB_LOG_INFO, "learned rates read from %s (%d)", path,
		         hyb_learn_table_count( f ) );

	hyb_lock( HYB_LOCK_LEARN );
	/* Another thread may have loaded the same file meanwhile, and folded measurements into
	   it: keep those. */
	if ( !( hyb_ls.loaded && strcmp( path, hyb_ls.path ) == 0 ) )
	{
		memcpy( hyb_ls.path, path, sizeof path );
		if ( f ) hyb_learn_install( f );
		hyb_ls.loaded = 1;
		hyb_ls.dirty  = 0;
	}
	free( f );
}

/* The cache is a plain int (the header is also read by C++ device tools, which have no
   _Atomic), accessed through the compiler's atomic builtins. */
hyb_op_id_t hyb_learn_op( int* cache, const char* name, int persist )
{
	int id = __atomic_load_n( cache, __ATOMIC_ACQUIRE );
	if ( id == HYB_LEARN_OP_UNSET )
	{
		id = hyb_op_register( name, name );
		if ( persist ) hyb_learn_persist( id );
		__atomic_store_n( cache, id, __ATOMIC_RELEASE );
	}
	return id;
}

void hyb_learn_persist( hyb_op_id_t op )
{
	if ( op == HYB_OP_NONE ) return;
	hyb_lock( HYB_LOCK_LEARN );
	if ( !hyb_learn_persistent( op ) && hyb_ls.npersist < HYB_LEARN_PERSIST_MAX )
	{
		hyb_ls.persist[hyb_ls.npersist++] = op;
		hyb_learn_adopt( op );
	}
	hyb_unlock( HYB_LOCK_LEARN );
}

hyb_learn_rate_t hyb_learn_rate( hyb_learn_key_t key, hyb_learn_slot_t slot )
{
	hyb_learn_lock_for( key.op );
	hyb_learn_rate_t r = hyb_learn_table_rate( &hyb_ls.tab, key, slot );
	hyb_unlock( HYB_LOCK_LEARN );
	return r;
}

void hyb_learn_rates_of( const hyb_learn_key_t* keys, int n,
                         hyb_learn_rate_t ( *out )[HYB_LEARN_SLOTS] )
{
	if ( n < 1 ) return;
	hyb_learn_lock_for( keys[0].op );
	for ( int k = 0; k < n; k++ )
		for ( int s = 0; s < HYB_LEARN_SLOTS; s++ )
			out[k][s] = hyb_learn_table_rate( &hyb_ls.tab, keys[k], (hyb_learn_slot_t)s );
	hyb_unlock( HYB_LOCK_LEARN );
}

void hyb_learn_rates( hyb_learn_key_t key, hyb_learn_rate_t out[HYB_LEARN_SLOTS] )
{
	hyb_learn_rates_of( &key, 1, (hyb_learn_rate_t( * )[HYB_LEARN_SLOTS])out );
}

static hyb_status_t hyb_learn_changed_unlock( hyb_learn_key_t key, hyb_status_t st )
{
	if ( st == HYB_OK && hyb_learn_persistent( key.op ) ) hyb_ls.dirty = 1;
	hyb_unlock( HYB_LOCK_LEARN );
	return st;
}

hyb_status_t hyb_learn_note( hyb_learn_key_t key, hyb_learn_slot_t slot, double sample, double w )
{
	hyb_learn_lock_for( key.op );
	return hyb_learn_changed_unlock( key,
	                                 hyb_learn_table_fold( &hyb_ls.tab, key, slot, sample, w ) );
}

hyb_status_t hyb_learn_note_ratio( hyb_learn_key_t key, hyb_learn_slot_t slot, double ratio,
                                   double w, double lo, double hi )
{
	hyb_learn_lock_for( key.op );
	return hyb_learn_changed_unlock(
	    key, hyb_learn_table_ratio( &hyb_ls.tab, key, slot, ratio, w, lo, hi ) );
}

/* Create the directory of path (one level) if it is missing. */
static void hyb_learn_mkdir( const char* path )
{
	char dir[HYB_FILE_PATH_MAX];
	snprintf( dir, sizeof dir, "%s", path );
	char* slash = strrchr( dir, '/' );
	if ( slash == NULL || slash == dir ) return;
	*slash = '\0';
	if ( mkdir( dir, 0755 ) != 0 && errno != EEXIST ) return;
}

static void hyb_learn_write( const char* path, const hyb_learn_table_t* t )
{
	hyb_status_t st = hyb_learn_table_write( path, t );
	if ( st == HYB_E_IO )
	{
		hyb_learn_mkdir( path );
		st = hyb_learn_table_write( path, t );
	}
	if ( st != HYB_OK )
		hyb_log_once( hyb_hash_str( path, 0x77727465 ), HYB_LOG_INFO,
		              "learned rates cannot be written to %s (%s); kept for this process only",
		              path, hyb_status_string( st ) );
}

/* The persistent part of the table, what the file holds (the lock is held). */
static void hyb_learn_snapshot( hyb_learn_table_t* out )
{
	hyb_learn_table_init( out );
	for ( int k = 0; k < hyb_ls.tab.count; k++ )
		if ( hyb_learn_persistent( hyb_ls.tab.e[k].key.op ) )
			out->e[out->count++] = hyb_ls.tab.e[k];
	out->npending = hyb_ls.tab.npending;
	memcpy( out->p, hyb_ls.tab.p, sizeof out->p[0] * (size_t)out->npending );
}

/* fork() child hook: a write in progress belonged to a thread of the parent; the child's
   own changes are written by the child. */
static void hyb_learn_fork_child( void )
{
	hyb_ls.writing = 0;
	hyb_ls.dirty   = 0;
}

void hyb_learn_commit( void )
{
	/* Under secure execution nothing is written, and no directory made. */
	if ( hyb_secure_mode() ) return;
	hyb_lock( HYB_LOCK_LEARN );
	int write = 0;
	if ( hyb_ls.dirty && hyb_ls.loaded && hyb_ls.path[0] && !hyb_ls.writing )
	{
		hyb_ls.writing = write = 1;
		hyb_state_on_fork_child( HYB_LOCK_LEARN, hyb_learn_fork_child );
	}
	hyb_learn_table_t* snap = write ? malloc( sizeof *snap ) : NULL;
	/* This thread writes until no other change came in meanwhile. */
	while ( write && snap )
	{
		char path[sizeof hyb_ls.path];
		hyb_learn_snapshot( snap );
		memcpy( path, hyb_ls.path, sizeof path );
		hyb_ls.dirty = 0;
		hyb_unlock( HYB_LOCK_LEARN );
		hyb_learn_write( path, snap );
		hyb_lock( HYB_LOCK_LEARN );
		if ( !hyb_ls.dirty || !hyb_ls.path[0] ) write = 0;
	}
	if ( write || snap ) hyb_ls.writing = 0; /* done, or no memory for the snapshot */
	hyb_unlock( HYB_LOCK_LEARN );
	free( snap );
}

/* Unloading (dlclose, or the process's exit): what was learned and not yet written. */
__attribute__( ( destructor ) ) static void hyb_learn_unload_commit( void )
{
	hyb_learn_commit();
}

void hyb_learn_forget( hyb_op_id_t op )
{
	hyb_lock( HYB_LOCK_LEARN );
	hyb_learn_table_forget( &hyb_ls.tab, op );
	if ( hyb_learn_persistent( op ) ) hyb_ls.dirty = 1;
	hyb_unlock( HYB_LOCK_LEARN );
}

void hyb_learn_unload( void )
{
	hyb_lock( HYB_LOCK_LEARN );
	for ( int k = 0; k < hyb_ls.npersist; k++ )
		hyb_learn_table_forget( &hyb_ls.tab, hyb_ls.persist[k] );
	hyb_ls.tab.npending = 0;
	hyb_ls.loaded       = 0;
	hyb_ls.path[0]      = '\0';
	hyb_ls.writing = hyb_ls.dirty = 0;
	hyb_unlock( HYB_LOCK_LEARN );
}

/* ------------------------------------------------------------ measured choices */

/* The record of key, or NULL (the lock is held). */
static hyb_learn_choice_slot_t* hyb_learn_choice_find( hyb_learn_key_t key )
{
	for ( int i = 0; i < HYB_LEARN_CHOICES_MAX; i++ )
		if ( hyb_ls.choice[i].lru && hyb_ls.choice[i].key.op == key.op &&
		     hyb_ls.choice[i].key.cls == key.cls )
			return &hyb_ls.choice[i];
	return NULL;
}

/* Room for a new record of op: the op's least recently used one when it holds
   HYB_LEARN_CHOICES_PER_OP, else a free one, else the least recently used of all. */
static hyb_learn_choice_slot_t* hyb_learn_choice_room( hyb_op_id_t op )
{
	hyb_learn_choice_slot_t *own = NULL, *any = NULL, *free_slot = NULL;
	int                      n = 0;
	for ( int i = 0; i < HYB_LEARN_CHOICES_MAX; i++ )
	{
		hyb_learn_choice_slot_t* s = &hyb_ls.choice[i];
		if ( s->lru == 0 )
		{
			if ( !free_slot ) free_slot = s;
			continue;
		}
		if ( !any || s->lru < any->lru ) any = s;
		if ( s->key.op != op ) continue;
		n++;
		if ( !own || s->lru < own->lru ) own = s;
	}
	return n >= HYB_LEARN_CHOICES_PER_OP ? own : free_slot ? free_slot : any;
}

int hyb_learn_choice( hyb_learn_key_t key, int create, hyb_learn_rule_t rule, void* ctx )
{
	hyb_lock( HYB_LOCK_LEARN );
	hyb_learn_choice_slot_t* s = hyb_learn_choice_find( key );
	if ( s == NULL && create )
	{
		s = hyb_learn_choice_room( key.op );
		memset( s, 0, sizeof *s );
		s->key = key;
	}
	if ( s && create ) s->lru = ++hyb_ls.clock; /* a use; a note on it is not */
	if ( s ) rule( &s->c, ctx );
	hyb_unlock( HYB_LOCK_LEARN );
	return s != NULL;
}

int hyb_learn_choice_get( hyb_learn_key_t key, hyb_learn_choice_t* out )
{
	hyb_lock( HYB_LOCK_LEARN );
	hyb_learn_choice_slot_t* s = hyb_learn_choice_find( key );
	if ( s ) *out = s->c;
	hyb_unlock( HYB_LOCK_LEARN );
	return s != NULL;
}

void hyb_learn_choice_forget( hyb_learn_key_t key )
{
	hyb_lock( HYB_LOCK_LEARN );
	hyb_learn_choice_slot_t* s = hyb_learn_choice_find( key );
	if ( s ) memset( s, 0, sizeof *s );
	hyb_unlock( HYB_LOCK_LEARN );
}

void hyb_learn_choices_forget( hyb_op_id_t op )
{
	hyb_lock( HYB_LOCK_LEARN );
	for ( int k = 0; k < HYB_LEARN_CHOICES_MAX; k++ )
		if ( hyb_ls.choice[k].lru && hyb_ls.choice[k].key.op == op )
			memset( &hyb_ls.choice[k], 0, sizeof hyb_ls.choice[k] );
	hyb_unlock( HYB_LOCK_LEARN );
}
