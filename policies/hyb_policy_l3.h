/* SPDX-License-Identifier: BSD-3-Clause */
/* Level-3 decisions as pure functions: the cost model of the CPU library and
   of the device pipeline, tile sizes, the CPU share of a split call, and the
   plan. No globals, no I/O: unit-tested at their boundaries without a GPU. */
#ifndef HYB_POLICY_L3_H
#define HYB_POLICY_L3_H

#include "core/config/hyb_config.h"
#include "hyb_args.h"
#include "policies/hyb_profile.h"

/* How the device pipeline moves the operands (flags of the cost model). */
enum
{
	HYB_L3_REGISTER  = 1, /* DMA from registered pages instead of staging copies of A and B */
	HYB_L3_BETA_HOST = 2  /* beta != 0 applied while C is stored, C never uploaded */
};

typedef struct
{
	hyb_path_t  path;         /* HYB_PATH_CPU, HYB_PATH_GPU or HYB_PATH_SPLIT */
	int64_t     Tm, Tn, K;    /* tile rows, tile columns and k-chunk of the device work */
	int         ndev;         /* devices to use */
	int         register_ops; /* DMA from registered pages instead of staging copies */
	int         beta_host;    /* beta applied on the host (hyb_l3_work_beta_on_host) */
	int64_t     cpu_cols;     /* split: the last cpu_cols columns go to the CPU ... */
	int64_t     cpu_rows;     /* ... or the last cpu_rows rows */
	double      t_cpu;        /* predicted seconds, CPU library alone */
	double      t_gpu;        /* predicted seconds, device alone */
	double      t_plan;       /* predicted seconds of the chosen plan */
	const char* why;          /* short reason, for the trace */
} hyb_l3_plan_t;

/* In auto mode one more device is taken only when the model predicts the call
   at most this fraction of its time on fewer. The host's copy rate with several
   devices' teams at once is calibrated with two teams only, and copies in short
   pieces slow the host's memory as well as each team (the model charges that to
   each team only): measured with two devices that each loaded every block, the
   model was off by about 15 % either way depending on which it charges. A device
   taken for a smaller predicted gain could make the call slower than on one. */
#define HYB_L3_MORE_DEVICES 0.85

/* The HYB_L3_* flags of a plan, as the cost model takes them. */
static inline unsigned hyb_l3_plan_flags( const hyb_l3_plan_t* p )
{
	return ( p->register_ops ? HYB_L3_REGISTER : 0u ) | ( p->beta_host ? HYB_L3_BETA_HOST : 0u );
}

typedef struct
{
	hyb_mode_t mode;
	int        ndev;      /* usable devices (0: none) */
	double     budget;    /* device memory per device, bytes */
	int64_t    tile;      /* HYBLAS_TILE (0: model) */
	double     cpu_ratio; /* fixed CPU share, < 0 for the model */
	int        staging;   /* hyb_staging_t */
	int        beta_host; /* HYBLAS_HOST_BETA */
	double     min_flops; /* below: CPU in auto mode (a repeated shape near the
	                         boundary from HYB_L3_PROBE_MIN_FLOPS on is measured) */
	double gpu_scale;     /* measured/predicted device time of recent calls (1: none) */
	double cpu_rate;      /* measured CPU rate of recent strips, flop/s (0: none) */
} hyb_l3_policy_in_t;

/* Predicted seconds of the CPU library for `flops` of precision `prec`. */
double hyb_cost_l3_cpu( const hyb_profile_t* p, hyb_prec_t prec, double flops );

/* Predicted seconds of the device pipeline on the region m_dev x n_dev of
   the output of `a` with tiles Tm x Tn and k-chunks K on ndev devices,
   moving the operands as `flags` (HYB_L3_*) says.
   parts, if not NULL, receives { fixed, host copies, PCIe, products }. */
double hyb_cost_l3_gpu( const hyb_profile_t* p, const hyb_l3_args_t* a, int64_t m_dev,
                        int64_t n_dev, int64_t Tm, int64_t Tn, int64_t K, int ndev, double budget,
                        unsigned flags, double parts[4] );

/* Tiles and k-chunk for `a` within `budget` bytes of device memory: for
   gemm the shape the cost model predicts fastest among full-height, full-
   width, full-depth and power-of-two edges; square tiles otherwise (tile !=
   0 forces square tiles of that edge). *Tm = 0 when nothing fits. */
void hyb_policy_l3_tiles( const hyb_l3_args_t* a, const hyb_profile_t* p, int ndev, double budget,
                          int64_t tile, unsigned flags, int64_t* Tm, int64_t* Tn, int64_t* K );

/* The plan for a valid, normalized, non-trivial call. */
hyb_l3_plan_t hyb_policy_l3_choose( const hyb_l3_args_t* a, const hyb_profile_t* p,
                                    const hyb_l3_policy_in_t* in );

/* ------------------------------------------------------------ measured choice */

/* Near the boundary the model's two predictions are within a few tens of
   percent of each other, and so is its error on small calls (measured at
   n = 256: CPU 0.30 ms against the device's 0.29; on a slower host 0.36-0.41
   against 0.28-0.35, and the model predicted the CPU faster). A shape that
   comes back is then timed both ways, each side's calls in a row (the
   model's side first), and keeps the faster measured one. Calls whose
   predictions are further apart than HYB_L3_PROBE_BAND are not measured: the
   model is trusted there, and a probe of the wrong side would cost more than
   it could save. */
#define HYB_L3_PROBE_BAND  2.0
#define HYB_L3_PROBE_CALLS 3 /* timed calls of each side before settling */
/* A settled shape keeps timing its calls: when the median of its last
   HYB_L3_WATCH_CALLS exceeds the other side's probe median by
   HYB_L3_RECHECK, both sides are timed again, at most HYB_L3_REPROBES times
   a shape (measured: n = 256 settled on one lucky device probe, 0.27 ms, and
   its device calls then took 0.34-0.50 ms against the CPU's 0.30-0.33). */
#define HYB_L3_WATCH_CALLS 5
#define HYB_L3_RECHECK     1.15
#define HYB_L3_REPROBES    3
/* A shape is also timed both ways once more after its first
   HYB_L3_CONFIRM_CALLS settled calls: the first calls after the device
   starts can run the CPU slower for a while (measured at n = 256: CPU calls of
   0.39-0.63 ms from the shape's 8th call to about its 26th, forced and auto
   alike, 0.31-0.33 before and after), and a probe median taken then makes
   the other side look better for good, since only the settled side is
   watched. */
#define HYB_L3_CONFIRM_CALLS 20
/* Below HYBLAS_L3_MIN_FLOPS a call keeps the CPU in auto mode, but from this
   size on its plan still carries the device prediction, so that a repeated
   shape near the boundary is measured (n = 256 has 3.4e7 flops); below it
   the CPU library is called straight away. */
#define HYB_L3_PROBE_MIN_FLOPS 2e7

/* Sides: 0 the CPU library, 1 the device (alone, or with the model's CPU strip). */
typedef struct
{
	int    settled;                      /* 1: `side` is kept while it keeps its time */
	int    side;                         /* the settled side */
	int    n[2];                         /* calls timed on each side while probing */
	double probe[2][HYB_L3_PROBE_CALLS]; /* their times, seconds */
	double mid[2];                       /* each side's probe median once settled */
	int    nwatch;                       /* settled calls timed since settling */
	double watch[HYB_L3_WATCH_CALLS];    /* the last of them, round robin */
	int    reprobes;                     /* times the shape was probed again */
	int    confirmed;                    /* 1: the confirming probe has been started */
} hyb_l3_measured_t;

/* 1 when the plan's CPU and device predictions are both finite and within
   HYB_L3_PROBE_BAND of each other and the device path exists (tiles fit). */
int hyb_policy_l3_worth_measuring( const hyb_l3_plan_t* plan );

/* The side the next call of the shape runs: the settled one, else
   `model_side` (the plan's) until it has HYB_L3_PROBE_CALLS timed calls,
   then the other side. */
int hyb_policy_l3_measured_side( const hyb_l3_measured_t* m, int model_side );

/* A call on `side` took `seconds`. While probing: after HYB_L3_PROBE_CALLS
   on each side the record settles on the side with the smaller median (a
   best time would favour the side that varies more). Settled: the call is
   watched, and the record probes again when the settled side has slowed
   past the other (HYB_L3_RECHECK above), and once after its first
   HYB_L3_CONFIRM_CALLS settled calls. */
void hyb_policy_l3_measured_note( hyb_l3_measured_t* m, int side, double seconds );

/* The plan run on `side`: the plan itself when it is the plan's side, else
   the device alone (tiles as planned, no CPU strip) for a CPU plan and the
   CPU for a device or split plan; `why` says whether the call probes the
   other side or runs the measured choice (`settled`). */
hyb_l3_plan_t hyb_policy_l3_measured_plan( const hyb_l3_plan_t* plan, int side, int settled );

#endif
