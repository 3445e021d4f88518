# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-28
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 7.54659e+09
d2h_pageable           = 1.52892e+10
h2d_pinned             = 5.4951e+10
d2h_pinned             = 5.4842e+10
bidir_pinned           = 9.45282e+10
register_s_per_byte    = 3.88017e-11
unregister_s_per_byte  = 1.82506e-11
host_copy              = 3.80807e+10
host_copy_dual         = 5.5746e+10
copy_piece_half        = 2596.76
gpu_sflops             = 5.11187e+13
gpu_dflops             = 5.95652e+13
gpu_cflops             = 5.40956e+13
gpu_zflops             = 5.82061e+13
gpu_half_flops         = 4.0019e+08
cpu_sflops             = 2.46649e+11
cpu_dflops             = 1.20691e+11
cpu_cflops             = 2.86268e+11
cpu_zflops             = 1.25381e+11
cpu_half_flops         = 8.19269e+06
gpu_call_overhead      = 4.4548e-06
launch_latency         = 8e-06
min_cpu_share          = 0.03
