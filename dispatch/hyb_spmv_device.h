/* SPDX-License-Identifier: BSD-3-Clause */
/* The device paths of the sparse products (seed 001): residency of converted device
   copies, the plan of each call, running it, and what tests and the benchmark may force
   or read back. */
#ifndef HYB_SPMV_DEVICE_H
#define HYB_SPMV_DEVICE_H

#include "core/config/hyb_config.h"
#include "hyb_args.h"
#include "kernels/pipeline/hyb_spmv_pipe.h"
#include "policies/hyb_policy_spmv.h"
#include "policies/hyb_residency.h"

/* What a test or the benchmark forces (a zeroed struct, or active = 0, forces nothing). */
typedef struct
{
	int                  active;
	hyb_spmv_plan_opts_t opts; /* runs and formats allowed, or a forced run (format, K,
	                              share) */
	int     resident;          /* -1 automatic; 0 never cache; 1 cache from the first call */
	int64_t block_rows;        /* rows per device block (0: automatic) */
	int     yreg;              /* -1 automatic (registered from y's second call); 0 never;
	                              2 registered at once */
	int xreg;                  /* -1 automatic (registered from x's second call, proven by its
	                              fingerprints); 0 never; 2 registered at once */
	size_t   x_chunk;          /* bytes per x upload chunk (0: automatic) */
	uint64_t salt;             /* mixed into the residency key (tests wanting a fresh entry) */
	int      fill_sync;        /* 1: auto mode converts and uploads in the call itself, not on
	                              the background builder */
	int no_check_kernel;       /* 1: build as if the backend had no spmv.check and spmv.cooptr
	                              (the background build snapshots, converts, runs a product) */
	size_t copy_piece;         /* bytes per piece of a background copy of the arrays (0:
	                              automatic) */
	int copy_readers;          /* threads reading a background copy's pieces (0: automatic,
	                              hyb_spmv_copy_readers) */
} hyb_spmv_force_t;

/* Background copies of the caller's arrays (the lean build) since the process started. */
typedef struct
{
	uint64_t started;  /* handed to the background builder */
	uint64_t kept;     /* checked and made resident */
	uint64_t rejected; /* the device check refused it: indices the CPU path would reject, or
	                      a COO not grouped by rows */
	uint64_t failed;   /* a device error, no memory, or arrays that could not be read */
	uint64_t dia;      /* of those kept, turned into DIA on the device (the rest stay CSR) */
} hyb_spmv_copy_stats_t;

/* What one call did (for the trace, the tests and the benchmark). */
typedef struct
{
	hyb_path_t        path; /* cpu, gpu, split (hybrid or row split), fallback */
	hyb_spmv_run_t    run;  /* the plan's run */
	hyb_spmv_devfmt_t fmt;
	int64_t           K;        /* ELL slots / DIA diagonals of the device part */
	int64_t           K_alg3;   /* the seed's Algorithm 3 for that format (-1: none) */
	double            share;    /* row split: the device's share of the entries */
	hyb_spmv_phase_t  phase;    /* first call (conversion and upload) or steady state */
	int               cache;    /* -1: not looked up; else the hyb_residency_outcome_t */
	int               filled;   /* this call made the matrix resident */
	double            t_cpu;    /* predicted CPU-only time */
	double            t_gpu;    /* predicted best device-only time */
	double            t_pred;   /* predicted time of the chosen run */
	double            stats_s;  /* host time of the statistics pass (view, DF, diagonals) */
	double            seconds;  /* time in the device path (statistics, build, run) */
	double            check_s;  /* a resident call's change check of the arrays (beside the
	                               product where both run) */
	hyb_status_t error;         /* device error that sent the call back to the CPU */
	const char*  why;           /* one phrase: why this path */
	uint64_t     probe_h;       /* nonzero: this CPU call times the product of that array set
	                               (report it with hyb_spmv_device_probe_done) */
	hyb_spmv_pipe_out_t pipe;   /* the run's own measurements (device paths) */
	void*               bg_job; /* non-NULL: a background build waits for this CPU call's
	                               outcome (hand it to hyb_spmv_device_bg_after_cpu) */
} hyb_spmv_report_t;

/* The device side of a valid call (a->transa decoded, m > 0, at least one entry) that the
   dispatcher found eligible (mode not cpu, large enough, devices up). Decides, possibly
   runs, and returns: HYB_PATH_CPU when the caller must compute y on the CPU (the plan
   keeps the CPU, or nothing was started); HYB_PATH_GPU or HYB_PATH_SPLIT when y is
   complete; HYB_PATH_FALLBACK when the device failed after starting: y is incomplete and
   the caller must compute it on the CPU. rep receives the details. Thread-safe. */
hyb_path_t hyb_spmv_device_run( const hyb_call_t* call, const hyb_spmv_args_t* a, hyb_mode_t mode,
                                hyb_spmv_report_t* rep );

/* Force runs (tests, benchmark); NULL clears. Applies to calls that start afterwards. */
void hyb_spmv_device_force( const hyb_spmv_force_t* f );

/* The report of the calling thread's last call that reached hyb_spmv_device_run (or the
   dispatcher's CPU decision). Never NULL. */
hyb_spmv_report_t* hyb_spmv_last_report( void );

/* The CPU product of a call whose report holds a background build (report->bg_job) ended
   with status st: a valid call's build is handed to the helper thread, an invalid call's
   dropped (a copy is only built from arrays a call accepted). Clears report->bg_job. */
void hyb_spmv_device_bg_after_cpu( hyb_spmv_report_t* report, hyb_status_t st );

/* The CPU product of a probe call (report->probe_h) took `seconds`. */
void hyb_spmv_device_probe_done( uint64_t h, double seconds );

/* The counts of background copies so far (zeros after hyb_spmv_device_reset_for_test).
   Thread-safe. */
void hyb_spmv_copy_stats( hyb_spmv_copy_stats_t* out );

/* Statistics of the process's SpMV residency cache (zeros before the first use). */
void hyb_spmv_cache_stats( hyb_residency_stats_t* out );

/* Forget everything: the residency cache (payloads destroyed), the first-sighting memo,
   registered vectors, refitted rates, forcing. For tests switching configurations; call
   it before hyb_devices_reset_for_test, with no call in flight. */
void hyb_spmv_device_reset_for_test( void );

/* Short names for traces: "cpu", "gpu", "hybrid", "rowsplit"; "none", "csr", "ell", "dia". */
const char* hyb_spmv_run_name( hyb_spmv_run_t r );
const char* hyb_spmv_fmt_name( hyb_spmv_devfmt_t f );

#endif
