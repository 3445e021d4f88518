/* SPDX-License-Identifier: BSD-3-Clause */
/* The configuration: every HYBLAS_* knob parsed once, strictly, with the
   source each value came from. Immutable after stage-1 init. */
#ifndef HYB_CONFIG_H
#define HYB_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "hyb_status.h"
#include "hyb_types.h"

/* Where a value came from, lowest precedence first. */
typedef enum
{
	HYB_SRC_DEFAULT = 0,
	HYB_SRC_PROFILE,
	HYB_SRC_NVBLAS,
	HYB_SRC_FILE,
	HYB_SRC_ENV,
	HYB_SRC_TEST,
	HYB_SRC_SECURE /* forced under secure execution (hyb_config_load) */
} hyb_cfg_source_t;

/* A size: bytes, or a percentage of a whole known only to its user. */
typedef struct
{
	double value;
	int    percent;
} hyb_cfg_size_t;

/* Modes of HYBLAS_MODE and of HYBLAS_ROUTINE_MODE entries (order of the
   enum choices in the table). */
typedef enum
{
	HYB_MODE_AUTO = 0,
	HYB_MODE_CPU  = 1,
	HYB_MODE_GPU  = 2
} hyb_mode_t;

typedef enum
{
	HYB_DEVICE_CUDA = 0,
	HYB_DEVICE_SIM  = 1,
	HYB_DEVICE_NONE = 2
} hyb_device_kind_t;

typedef enum
{
	HYB_STAGING_AUTO     = 0,
	HYB_STAGING_COPY     = 1,
	HYB_STAGING_REGISTER = 2
} hyb_staging_t;

typedef enum
{
	HYB_RESIDENCY_OFF             = 0,
	HYB_RESIDENCY_VERIFY          = 1,
	HYB_RESIDENCY_TRACK           = 2,
	HYB_RESIDENCY_TRACK_SOFTDIRTY = 3 /* track, and soft-dirty where uffd-wp is missing */
} hyb_residency_mode_t;

#define HYB_CFG_PATH_MAX          1024
#define HYB_CFG_STRING_MAX        512
#define HYB_CFG_MAX_ROUTINE_MODES 64
#define HYB_CFG_MAX_GPUS          64

#define HYB_CFG_FIELD_INT( f )    int64_t f;
#define HYB_CFG_FIELD_DOUBLE( f ) double f;
#define HYB_CFG_FIELD_BOOL( f )   int f;
#define HYB_CFG_FIELD_SIZE( f )   hyb_cfg_size_t f;
#define HYB_CFG_FIELD_ENUM( f )   int f;
#define HYB_CFG_FIELD_STRING( f ) char f[HYB_CFG_STRING_MAX];
#define HYB_CFG_FIELD_PATH( f )   char f[HYB_CFG_PATH_MAX];

enum
{
#define HYB_VAR( NAME, TYPE, field, def, min, max, help ) HYB_CFG_IDX_##field,
#include "core/config/hyb_config_vars.def"
#undef HYB_VAR
	HYB_CFG_COUNT
};

/* One per-routine mode override: key is a family ("gemm") or a precision
   and family ("dgemm"). */
typedef struct
{
	int        op;   /* hyb_op_t */
	int        prec; /* hyb_prec_t, or -1 for every precision */
	hyb_mode_t mode;
	char       symbol[48]; /* an exact exported name ("cblas_dgemm"), or empty */
} hyb_cfg_routine_mode_t;

typedef struct hyb_config_s
{
#define HYB_VAR( NAME, TYPE, field, def, min, max, help ) HYB_CFG_FIELD_##TYPE( field )
#include "core/config/hyb_config_vars.def"
#undef HYB_VAR
	hyb_cfg_source_t source[HYB_CFG_COUNT];

	/* Derived from the strings above by hyb_config_finish(). */
	hyb_cfg_routine_mode_t routine_modes[HYB_CFG_MAX_ROUTINE_MODES];
	int                    n_routine_modes;
	double                 cpu_ratio_fixed; /* < 0: auto */
	int                    gpus_all;        /* "all" */
	int                    gpus_auto;       /* "auto": local-rank binding */
	int                    gpus_count;      /* a count N (0 = not given) */
	int                    gpu_list[HYB_CFG_MAX_GPUS];
	int                    n_gpu_list;
} hyb_config_t;

/* Fill `cfg` with the built-in defaults. */
void hyb_config_defaults( hyb_config_t* cfg );

/* Set one variable by name from text. On a bad name or value, returns
   HYB_E_INVALID / HYB_E_PARSE, writes a one-line reason into err and leaves
   the previous value. A value from a lower-precedence source never replaces
   one from a higher source. */
hyb_status_t hyb_config_set( hyb_config_t* cfg, const char* name, const char* value,
                             hyb_cfg_source_t src, char* err, size_t errlen );

/* Apply NAME=VALUE lines ('#' comments, blank lines, optional spaces around
   '='). Lines whose name does not start with HYBLAS_ are ignored when
   `only_hyblas` (a profile also holds machine parameters). Problems are
   logged as warnings naming `origin` and the line number. */
void hyb_config_apply_text( hyb_config_t* cfg, const char* text, hyb_cfg_source_t src,
                            const char* origin, int only_hyblas );

/* Apply an nvblas.conf text: NVBLAS keywords mapped to hyblas settings
   (README lists the mapping); unknown keywords warn. */
void hyb_config_apply_nvblas( hyb_config_t* cfg, const char* text, const char* origin );

/* Apply HYBLAS_* variables of an environment block; warn about unknown
   HYBLAS_* names (with the closest known name). */
void hyb_config_apply_env( hyb_config_t* cfg, char* const* envp );

/* Parse the derived fields (routine modes, CPU ratio, device list) and warn
   about bad entries. Call after the last apply. */
void hyb_config_finish( hyb_config_t* cfg );

/* Write every setting, its value and its source, one per line, to fd. */
void hyb_config_print( const hyb_config_t* cfg, int fd );

/* The mode that applies to (op, prec): routine entry > family entry >
   HYBLAS_MODE. Pure. */
hyb_mode_t hyb_config_mode_for( const hyb_config_t* cfg, hyb_op_t op, hyb_prec_t prec );

/* The same for one call of exported symbol `symbol`: an entry naming the
   exact symbol ("cblas_dgemm=gpu", "dgemm_=cpu") beats the rest. Pure. */
hyb_mode_t hyb_config_mode_for_call( const hyb_config_t* cfg, const char* symbol, hyb_op_t op,
                                     hyb_prec_t prec );

/* Resolve a SIZE setting against a whole (percent of `whole`). */
static inline double hyb_cfg_size_bytes( hyb_cfg_size_t s, double whole )
{
	return s.percent ? s.value * 0.01 * whole : s.value;
}

/* Name, help and source name, for listings (README, --help of tools). */
const char* hyb_config_var_name( int idx );
const char* hyb_config_var_help( int idx );
const char* hyb_config_source_name( hyb_cfg_source_t src );

/* Flags of hyb_config_load. */
#define HYB_CFG_LOAD_SECURE  1 /* secure execution (core/hyb_secure.h) */
#define HYB_CFG_LOAD_SET_LOG 2 /* point the process log at the settings */

/* Fill cfg from every source, by precedence: built-in defaults < profile
   (HYBLAS_PROFILE, default $XDG_CACHE_HOME/hyblas/profile) < nvblas.conf
   (NVBLAS_CONFIG_FILE) < HYBLAS_CONFIG_FILE < the HYBLAS_* variables of envp.
   Files are read through core/hyb_file (regular files only, bounded, never
   blocking); a source that was named and cannot be read is warned about.
   With HYB_CFG_LOAD_SECURE nothing of envp and no file is used: the
   defaults with HYBLAS_DEVICE=none (source HYB_SRC_SECURE), and one warning
   if envp held settings. With HYB_CFG_LOAD_SET_LOG the process log takes the
   level and the file of the settings; otherwise its level is left as it
   was. Not thread-safe with respect to logging configuration. */
void hyb_config_load( hyb_config_t* cfg, char* const* envp, int flags );

/* The process configuration: loads it on first use (hyb_config_load of the
   process environment, secure when core/hyb_secure.h says so) and returns
   it; never NULL; immutable afterwards. */
const hyb_config_t* hyb_config( void );

/* Replace the process configuration (unit tests only). */
void hyb_config_install_for_test( const hyb_config_t* cfg );

#endif
