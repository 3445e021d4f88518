/* SPDX-License-Identifier: BSD-3-Clause */
/* Cost model of the hybrid SpMV (seed 001, eqs. 2-8 and Algorithm 3) with transfer terms
   and calibrated rates: pure functions, no globals, no I/O. */
#ifndef HYB_POLICY_SPMV_H
#define HYB_POLICY_SPMV_H

#include <stdint.h>

#include "hyb_status.h"
#include "hyb_types.h"
#include "policies/hyb_learn.h"
#include "kernels/pipeline/hyb_spmv_build.h" /* the engine's device formats, grain and x chunk */

/* Device blocks carry about this much of y each (4 MiB): small enough that x up, kernels
   and y down overlap well, large enough that each block's fixed costs stay small. Matrices
   whose y is at most HYB_SPMV_ONE_BLOCK run as one block. The dispatch lays blocks out so;
   the model copies the last block's y out of staging after the span. */
#define HYB_SPMV_BLOCK_BYTES ( (int64_t)4 << 20 )
#define HYB_SPMV_ONE_BLOCK   ( (int64_t)8 << 20 )

/* The kinds of device span the model scales and refits apart: a format's kernel with the
   device alone, or beside a CPU side (a row split's CSR rows, a hybrid's ELL or DIA part),
   whose transfers share the host memory bus with it. One scale refitted from every span
   let a K sweep of ELL hybrids make the device alone look several times slower, and auto
   then took row splits slower than the device alone (docs/design-notes-spmv.md, "A scale
   per kind of span"). */
typedef enum
{
	HYB_SPMV_SPAN_CSR = 0, /* the device alone: CSR, ELL, DIA */
	HYB_SPMV_SPAN_ELL,
	HYB_SPMV_SPAN_DIA,
	HYB_SPMV_SPAN_ROWSPLIT, /* beside a CPU side: the row split's CSR rows, hybrid ELL, DIA */
	HYB_SPMV_SPAN_HYB_ELL,
	HYB_SPMV_SPAN_HYB_DIA,
	HYB_SPMV_SPANS
} hyb_spmv_span_t;

/* Calibrated machine rates. Bandwidths are effective rates of whole kernels, in bytes of
   the traffic model of each kernel (documented in hyb_policy_spmv.c next to the formula
   that uses it), so one figure serves both precisions. */
typedef struct
{
	double cpu_csr_bw; /* CPU-only CSR product on all cores, bytes/s */
	double cpu_coo_bw; /* COO remainder kernel on nc - 1 cores (one drives the device), bytes/s */
	double cpu_call_s; /* fixed cost of one CPU kernel call (parallel region), s */
	double core_bw;    /* one host thread streaming small arrays (a y copy out of staging,
	                      the remainder kernel below HYB_SPMV_GRAIN entries), bytes/s */
	double host_bw;    /* host memory bandwidth available to conversions, bytes/s */
	double conv_rate;  /* grouping + statistics of the source, entries/s (first call) */
	double stats_rate; /* the statistics pass alone (distribution function, diagonals) that
	                      a first sighting pays before any device run, entries/s */
	double gpu_csr_bw; /* device CSR kernel, bytes/s */
	double gpu_ell_bw; /* device ELL kernel, bytes/s (padding slots included) */
	double gpu_dia_bw; /* device DIA kernel, bytes/s */
	double gpu_step_s; /* latency of one dependent device step (DMA, kernel), s */
	double gpu_call_s; /* fixed host cost of one device call outside its device span and its
	                      CPU side: the context, events, waking from the last
	                      synchronisation, s */
	double h2d_bw;     /* host -> device for application data, as the transfer path achieves */
	double d2h_bw;     /* device -> host into the application's y */
	double gpu_mem;    /* bytes the device copy of the matrix may occupy */
	double overlap;    /* 0..1: how much of x up / kernel / y down the device path overlaps
	                      (0: one after the other; 1: chunk-pipelined, only the longest
	                      stage counts) */
	double margin;     /* leave the CPU (or prefer a split to GPU-only) only when the
	                      prediction is better by this fraction, e.g. 0.1 */
	double h2d_host_traffic; /* host memory bytes moved per byte uploaded from application
	                            memory: 3 when staged through page-locked buffers (read, write,
	                            DMA read), 1 for DMA from registered pages; 0 counts as 1 */
	double d2h_host_traffic; /* the same for y coming down: 3 staged, 1 into registered pages */
	double span_scale[HYB_SPMV_SPANS]; /* measured / predicted device span of each kind, the
	                                      refits' correction (0 counts as 1); it multiplies the
	                                      whole span, transfers and kernel */
} hyb_spmv_rates_t;

/* Statistics of the product matrix P = op(A), all from one pass over it. */
typedef struct
{
	int64_t        m;         /* order */
	int64_t        nnz;       /* stored entries */
	hyb_prec_t     prec;      /* S or D */
	int64_t        max_len;   /* M, the longest row */
	const int64_t* df;        /* the distribution function: df[i] = b_i, i = 0..M (sec. 4.1) */
	int64_t        ndiag;     /* diagonals listed (0: DIA not considered) */
	const int64_t* diag_occ;  /* entries per listed diagonal, most populated first */
	int64_t        diag_rest; /* entries on diagonals not listed */
	int            grouped;   /* 1: the source is already grouped by rows (CSR 'N', sorted COO) */
} hyb_spmv_stats_t;

typedef enum
{
	HYB_SPMV_FIRST_CALL = 0, /* the matrix is only in host memory: convert and upload */
	HYB_SPMV_STEADY     = 1  /* the device copy is resident: only x goes up and y down */
} hyb_spmv_phase_t;

typedef enum
{
	HYB_SPMV_RUN_CPU = 0, /* CPU-only CSR/COO product */
	HYB_SPMV_RUN_GPU,     /* the device alone */
	HYB_SPMV_RUN_HYBRID,  /* seed 001: ELL/DIA part on the device and COO remainder on the
	                         CPU at once, then added */
	HYB_SPMV_RUN_ROWSPLIT /* not in the seed: the device takes the CSR rows holding the first
	                         row_share of the entries (uploaded as they are, no conversion),
	                         the CPU the other rows; y is written in two disjoint pieces */
} hyb_spmv_run_t;

/* Prediction for one split: device part of width K (ELL slots per row, or DIA diagonals
   kept in statistics order), remainder on the CPU. */
typedef struct
{
	int64_t K;
	int64_t dev_nnz;    /* eq. 4 */
	int64_t cpu_nnz;    /* eq. 5 */
	int64_t slots;      /* m * K stored slots of the device part */
	double  dev_bytes;  /* size of the device part */
	int64_t nrun;       /* rows holding remainder entries (ELL exact, DIA an upper bound) */
	double  t_cpu_part; /* eq. 6 (0 without a remainder) */
	double  t_gpu_part; /* eq. 7 plus x up, y down, upload on a first call: the device span,
	                       first upload to last download (0 when K = 0) */
	double t_conv;      /* first call: building the split on the host */
	double t_post;      /* after both sides: y out of staging, the remainder merged into y */
	double t_total;     /* eq. 8: t_conv + gpu_call_s + max(t_cpu_part, t_gpu_part, bus)
	                       + t_post */
} hyb_spmv_pred_t;

typedef struct
{
	hyb_spmv_run_t    run;
	hyb_spmv_devfmt_t fmt;        /* device format of a GPU or HYBRID run */
	int64_t           K;          /* width of the chosen ELL/DIA part (0 for CSR, CPU) */
	int64_t           K_alg3;     /* Algorithm 3's threshold for that format (-1: none) */
	double            t_cpu;      /* predicted CPU-only time */
	double            t_gpu;      /* best predicted device-only time (INFINITY: none fits) */
	double            t_hybrid;   /* best predicted ELL/DIA + COO split (INFINITY: none) */
	double            t_rowsplit; /* best predicted row split (INFINITY: none fits) */
	double            row_share;  /* share of the entries the device takes in that split */
	hyb_spmv_devfmt_t gpu_fmt;    /* format achieving t_gpu */
	hyb_spmv_devfmt_t fmt_hybrid; /* format achieving t_hybrid */
	hyb_spmv_pred_t   split;      /* details of the chosen ELL/DIA part (GPU or HYBRID) */
	double            t_plan;     /* predicted time of the chosen run */
	double            t_span;     /* its device span (0 for the CPU): what the measured span
	                                 of a call refits */
	hyb_spmv_span_t span_kind;    /* the kind of that span */
	double          span_scale;   /* the scale t_span was predicted with (rates' span_scale) */
} hyb_spmv_plan_t;

/* What a caller may restrict or force (HYBLAS_MODE=gpu, sources a run cannot serve, tests,
   the benchmark's sweeps). A zeroed struct means "no restriction". */
typedef struct
{
	unsigned          allow_runs; /* bit (1u << run) per run that may be chosen; 0: every run */
	unsigned          allow_fmts; /* bit (1u << fmt) per device format allowed; 0: every format */
	int               force;      /* 1: run `run` whatever the predictions say */
	hyb_spmv_run_t    run;        /* the forced run */
	hyb_spmv_devfmt_t fmt;   /* forced GPU or HYBRID run: its format (NONE: the best allowed) */
	int64_t           K;     /* forced HYBRID: its width, clamped to [1, Kmax] (<= 0: the best) */
	double            share; /* forced ROWSPLIT: the device's share of the entries, clamped to
	                            [0.01, 0.99] (<= 0: the balanced share) */
} hyb_spmv_plan_opts_t;

/* Built-in rates, each with its provenance (mostly the project's probes, ANCHORS.md);
   calibration overrides them. Thread-safe. */
void hyb_policy_spmv_default_rates( hyb_spmv_rates_t* r );

/* Check a statistics block: m, nnz >= 0, df of max_len + 1 counts summing to m rows and
   nnz entries, diag_occ non-increasing and summing with diag_rest to nnz. Returns HYB_OK
   or HYB_E_INVALID. O(max_len + ndiag). */
hyb_status_t hyb_policy_spmv_check_stats( const hyb_spmv_stats_t* st );

/* Entries of the ELL part (eq. 4) and of the remainder (eq. 5) at threshold K >= 0, from
   the distribution function alone. O(min(K, M)). */
void hyb_policy_spmv_ell_counts( const hyb_spmv_stats_t* st, int64_t K, int64_t* dev_nnz,
                                 int64_t* cpu_nnz );

/* Predict one split (fmt ELL or DIA, 0 <= K <= max_len or ndiag). Returns HYB_E_INVALID
   for a bad format or K. Pure; O(K). */
hyb_status_t hyb_policy_spmv_predict( const hyb_spmv_stats_t* st, const hyb_spmv_rates_t* r,
                                      hyb_spmv_phase_t phase, hyb_spmv_devfmt_t fmt, int64_t K,
                                      hyb_spmv_pred_t* out );

/* The seed's Algorithm 3: scan K = 1 .. Kmax and stop where the CPU time (eq. 6) and the
   device time (eq. 7, with our transfer terms) cross; return the side of the crossing with
   the smaller maximum. Where they never cross: 1 if the device is slower from K = 1, Kmax
   if it is faster up to Kmax. -1 if there is no K to scan. Pure; O(Kmax). */
int64_t hyb_policy_spmv_seek_k( const hyb_spmv_stats_t* st, const hyb_spmv_rates_t* r,
                                hyb_spmv_phase_t phase, hyb_spmv_devfmt_t fmt );

/* K in [1, Kmax] minimising the predicted total (eq. 8 with all fixed and transfer terms;
   it equals Algorithm 3's answer when both times are monotone in K), skipping splits that
   exceed the device memory. -1 if none fits; *best receives its prediction. Pure; O(Kmax). */
int64_t hyb_policy_spmv_best_k( const hyb_spmv_stats_t* st, const hyb_spmv_rates_t* r,
                                hyb_spmv_phase_t phase, hyb_spmv_devfmt_t fmt,
                                hyb_spmv_pred_t* best );

/* Row split: the device takes rows [0, r) of the CSR form holding a share f of the entries,
   the CPU the others; f minimises the predicted time (a scan of f in steps of 1/512: on a
   first call the host memory bus, shared by the CPU's rows and the upload of the device's,
   bounds the time too). Returns the predicted time and stores f in *share. INFINITY if the
   rows do not fit. */
double hyb_policy_spmv_rowsplit( const hyb_spmv_stats_t* st, const hyb_spmv_rates_t* r,
                                 hyb_spmv_phase_t phase, double* share );

/* Predicted time of the row split at device share f in [0, 1] (INFINITY if its rows do not
   fit the device memory). Pure. */
double hyb_policy_spmv_rowsplit_at( const hyb_spmv_stats_t* st, const hyb_spmv_rates_t* r,
                                    hyb_spmv_phase_t phase, double f );

/* Bytes of a remainder of `nnz` entries in `nrun` rows to refit cpu_coo_bw from its
   measured time (less cpu_call_s): the model's traffic when the model times it at that
   bandwidth (a team whose threads x core_bw reach it), else 0 (do not refit). Pure. */
double hyb_policy_spmv_coo_refit_bytes( const hyb_spmv_rates_t* r, hyb_prec_t prec, int64_t nnz,
                                        int64_t nrun );

/* The decision: CPU-only, device-only (CSR, ELL or DIA), hybrid (ELL or DIA part plus COO
   remainder at the best K) or row split, with the margin applied in favour of the CPU and
   of the simpler device-only run. Returns HYB_E_INVALID for bad statistics or rates. Pure. */
hyb_status_t hyb_policy_spmv_plan( const hyb_spmv_stats_t* st, const hyb_spmv_rates_t* r,
                                   hyb_spmv_phase_t phase, hyb_spmv_plan_t* plan );

/* The same decision among the runs and formats opts allows (opts NULL: all of them, which is
   hyb_policy_spmv_plan). The margin still favours the CPU (when allowed) and device-only
   over splits. With opts->force the run is opts->run whatever the predictions; its format,
   K or share come from opts or, when not given, from the best allowed prediction.
   Returns HYB_E_INVALID for bad statistics or rates, HYB_E_NOT_SUPPORTED when nothing
   allowed is possible (no run allowed; a forced device-only DIA run of a matrix with entries
   off its listed diagonals; a forced device run that does not fit the device memory).
   plan->t_plan is the prediction of the chosen run. Pure. */
hyb_status_t hyb_policy_spmv_plan_opts( const hyb_spmv_stats_t* st, const hyb_spmv_rates_t* r,
                                        hyb_spmv_phase_t phase, const hyb_spmv_plan_opts_t* opts,
                                        hyb_spmv_plan_t* plan );

/* Whether a resident device plan still beats the CPU by the margin when each call also
   runs the change check of the arrays (`check_s` seconds, on its own thread beside the
   product: the longer of the two counts). 0 for a CPU plan. Pure. */
int hyb_policy_spmv_pays_check( const hyb_spmv_plan_t* plan, double check_s, double margin );

/* ------------------------------------------------------------ measured choice */

/* The model chooses a matrix's steady-state run before any call of it has been timed, and a
   device call's fixed costs (synchronisation, thread hand-offs, small copies) weigh most on
   small matrices, where the model is least sure. So, in auto mode, once a resident matrix
   has run on the device a few times and the device's best time is not far below the model's
   CPU time, a few calls run on the CPU to time it, and the faster measured path keeps the
   matrix. One record per matrix; the caller serialises access. */
typedef enum
{
	HYB_SPMV_MEASURING = 0, /* device calls counted, probes may follow */
	HYB_SPMV_KEEP_DEVICE,   /* measured: the device is faster (or clearly so by the model) */
	HYB_SPMV_KEEP_CPU,      /* measured: the CPU is faster */
} hyb_spmv_measured_state_t;

typedef struct
{
	hyb_spmv_measured_state_t state;
	int                       dev_n;     /* device calls timed */
	double                    dev_min;   /* the fastest of them, seconds */
	int                       probes;    /* CPU calls timed */
	double                    cpu_min;   /* the fastest of them, seconds */
	int                       probe_due; /* the next call runs on the CPU, timed */
} hyb_spmv_measured_t;

/* Device calls timed before the first probe (the first ones still register y and warm the
   staging buffers, and run slower than the later ones: docs/design-notes-spmv.md,
   "Measured choice in auto mode"), probes taken,
   and the fraction of the model's CPU time above which the device's best time is worth
   checking. */
/* Threads that read a background copy of a matrix's arrays where the process has at least
   HYB_SPMV_COPY_READERS_CORES threads: one thread reads the application's pages at about
   3 GB/s (process_vm_readv on the H200 hosts), so the read is the copy's time and two
   halve it, at one more core's cost to the CPU products that run meanwhile (bound by the
   memory bus rather than by their cores). With fewer threads, one reads. */
#define HYB_SPMV_COPY_READERS       2
#define HYB_SPMV_COPY_READERS_CORES 8

#define HYB_SPMV_PROBE_AFTER 8
#define HYB_SPMV_PROBES      3
#define HYB_SPMV_PROBE_RATIO 0.5

/* A device call of this matrix took `seconds` (the whole call, change check included);
   t_cpu is the model's CPU time for it. Pure. */
void hyb_policy_spmv_note_device( hyb_spmv_measured_t* m, double seconds, double t_cpu );

/* 1 (once) when this call should run on the CPU to time it. Pure. */
int hyb_policy_spmv_take_probe( hyb_spmv_measured_t* m );

/* A probe's CPU product took `seconds`; after the last probe the state settles on the
   faster measured path. Pure. */
void hyb_policy_spmv_note_probe( hyb_spmv_measured_t* m, double seconds );

/* ------------------------------------------------------------ in the learning store */

/* The operation the sparse products learn under ("spmv", policies/hyb_learn.h), in memory
   only (the refits follow this process's load; the calibration file holds the machine's
   base rates). Registered on first use. Thread-safe. Its shape classes: */
hyb_op_id_t hyb_policy_spmv_learn_op( void );

enum
{
	HYB_SPMV_LEARN_CPU = 0,  /* CPU slot: the CPU product's CSR bandwidth; OTHER: the COO
	                            remainder's */
	HYB_SPMV_LEARN_CALL = 1, /* GPU slot: the host cost of a device call, seconds */
	HYB_SPMV_LEARN_SPAN = 2, /* + a hyb_spmv_span_t: GPU slot, that kind's span scale */
};
/* The measured choices are keyed by the matrix's array set (dispatch/hyb_spmv_device.c);
   they and the rates never share a record. */

#endif
