# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 5.63141e+09
d2h_pageable           = 1.06313e+10
h2d_pinned             = 5.44126e+10
d2h_pinned             = 5.51467e+10
bidir_pinned           = 9.58911e+10
register_s_per_byte    = 7.93251e-11
unregister_s_per_byte  = 2.06371e-11
host_copy              = 3.16417e+10
host_copy_dual         = 4.90228e+10
copy_piece_half        = 491.763
gpu_sflops             = 5.12776e+13
gpu_dflops             = 5.8423e+13
gpu_cflops             = 5.41045e+13
gpu_zflops             = 5.66691e+13
gpu_half_flops         = 3.50216e+08
cpu_sflops             = 2.1695e+11
cpu_dflops             = 1.10716e+11
cpu_cflops             = 2.08906e+11
cpu_zflops             = 1.06314e+11
cpu_half_flops         = 4.29712e+06
gpu_call_overhead      = 0.000366907
launch_latency         = 8e-06
min_cpu_share          = 0.03
