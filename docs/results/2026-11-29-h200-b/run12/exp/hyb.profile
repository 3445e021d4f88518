# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 7.96706e+09
d2h_pageable           = 1.14804e+10
h2d_pinned             = 5.53425e+10
d2h_pinned             = 5.51051e+10
bidir_pinned           = 1.01247e+11
register_s_per_byte    = 5.14743e-11
unregister_s_per_byte  = 2.2946e-11
host_copy              = 4.16038e+10
host_copy_dual         = 5.71835e+10
copy_piece_half        = 420.8
gpu_sflops             = 5.11105e+13
gpu_dflops             = 5.83782e+13
gpu_cflops             = 5.40973e+13
gpu_zflops             = 5.92063e+13
gpu_half_flops         = 3.34851e+08
cpu_sflops             = 2.05128e+11
cpu_dflops             = 1.21551e+11
cpu_cflops             = 2.43016e+11
cpu_zflops             = 1.23601e+11
cpu_half_flops         = 6.05075e+06
gpu_call_overhead      = 0.000304388
launch_latency         = 8e-06
min_cpu_share          = 0.03
