# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 9.47327e+09
d2h_pageable           = 1.6797e+10
h2d_pinned             = 5.55176e+10
d2h_pinned             = 5.54022e+10
bidir_pinned           = 1.01595e+11
register_s_per_byte    = 3.94646e-11
unregister_s_per_byte  = 1.56323e-11
host_copy              = 4.54317e+10
host_copy_dual         = 6.10483e+10
copy_piece_half        = 51.4018
gpu_sflops             = 5.13233e+13
gpu_dflops             = 6.17751e+13
gpu_cflops             = 5.41037e+13
gpu_zflops             = 5.90624e+13
gpu_half_flops         = 4.87201e+08
cpu_sflops             = 2.47816e+11
cpu_dflops             = 1.30726e+11
cpu_cflops             = 2.5578e+11
cpu_zflops             = 1.29639e+11
cpu_half_flops         = 7.08879e+06
gpu_call_overhead      = 0.000202612
launch_latency         = 8e-06
min_cpu_share          = 0.03
