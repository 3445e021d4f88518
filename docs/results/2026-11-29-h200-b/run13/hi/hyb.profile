# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 4.6972e+09
d2h_pageable           = 6.55182e+09
h2d_pinned             = 5.53374e+10
d2h_pinned             = 5.52049e+10
bidir_pinned           = 9.99533e+10
register_s_per_byte    = 6.83502e-11
unregister_s_per_byte  = 2.30191e-11
host_copy              = 3.38307e+10
host_copy_dual         = 5.77783e+10
copy_piece_half        = 110.177
gpu_sflops             = 5.12867e+13
gpu_dflops             = 5.94824e+13
gpu_cflops             = 5.41007e+13
gpu_zflops             = 5.70768e+13
gpu_half_flops         = 5.36745e+08
cpu_sflops             = 2.36604e+11
cpu_dflops             = 1.2033e+11
cpu_cflops             = 2.39779e+11
cpu_zflops             = 1.23046e+11
cpu_half_flops         = 8.5709e+06
gpu_call_overhead      = 0.000391903
launch_latency         = 8e-06
min_cpu_share          = 0.03
