# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 7.04609e+09
d2h_pageable           = 1.1973e+10
h2d_pinned             = 5.53546e+10
d2h_pinned             = 5.53372e+10
bidir_pinned           = 1.01541e+11
register_s_per_byte    = 5.29937e-11
unregister_s_per_byte  = 1.95186e-11
host_copy              = 3.76611e+10
host_copy_dual         = 5.69033e+10
copy_piece_half        = 0
gpu_sflops             = 5.12874e+13
gpu_dflops             = 5.87769e+13
gpu_cflops             = 5.41043e+13
gpu_zflops             = 5.74038e+13
gpu_half_flops         = 3.52182e+08
cpu_sflops             = 2.14661e+11
cpu_dflops             = 1.08057e+11
cpu_cflops             = 2.27522e+11
cpu_zflops             = 1.10785e+11
cpu_half_flops         = 4.72763e+06
gpu_call_overhead      = 3.79776e-05
launch_latency         = 8e-06
min_cpu_share          = 0.03
