# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H100 80GB HBM3; 2026-11-25
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 9.01796e+09
d2h_pageable           = 1.52038e+10
h2d_pinned             = 5.52335e+10
d2h_pinned             = 5.51814e+10
bidir_pinned           = 8.87891e+10
register_s_per_byte    = 3.97709e-11
unregister_s_per_byte  = 1.54893e-11
host_copy              = 4.14915e+10
host_copy_dual         = 4.93335e+10
copy_piece_half        = 562.802
gpu_sflops             = 5.15766e+13
gpu_dflops             = 5.75663e+13
gpu_cflops             = 5.41035e+13
gpu_zflops             = 5.66433e+13
gpu_half_flops         = 3.24645e+08
cpu_sflops             = 2.46476e+11
cpu_dflops             = 1.02949e+11
cpu_cflops             = 2.23003e+11
cpu_zflops             = 1.06228e+11
cpu_half_flops         = 1.44872e+07
gpu_call_overhead      = 0.000621331
launch_latency         = 8e-06
min_cpu_share          = 0.03
