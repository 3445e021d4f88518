# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 7.10795e+09
d2h_pageable           = 1.17537e+10
h2d_pinned             = 5.52227e+10
d2h_pinned             = 5.52716e+10
bidir_pinned           = 8.10911e+10
register_s_per_byte    = 5.34389e-11
unregister_s_per_byte  = 1.90033e-11
host_copy              = 4.37551e+10
host_copy_dual         = 5.91983e+10
copy_piece_half        = 1507.45
gpu_sflops             = 5.12797e+13
gpu_dflops             = 5.98013e+13
gpu_cflops             = 5.40941e+13
gpu_zflops             = 5.6602e+13
gpu_half_flops         = 4.95257e+08
cpu_sflops             = 1.71989e+11
cpu_dflops             = 1.14729e+11
cpu_cflops             = 2.19817e+11
cpu_zflops             = 1.19537e+11
cpu_half_flops         = 1.96895e+07
gpu_call_overhead      = 0.00104082
launch_latency         = 8e-06
min_cpu_share          = 0.03
