# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H100 80GB HBM3; 2026-11-25
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 8.88044e+09
d2h_pageable           = 1.66448e+10
h2d_pinned             = 5.49302e+10
d2h_pinned             = 3.18324e+10
bidir_pinned           = 5.71762e+10
register_s_per_byte    = 4.77819e-11
unregister_s_per_byte  = 1.75873e-11
host_copy              = 4.45663e+10
host_copy_dual         = 5.74326e+10
copy_piece_half        = 3303.17
gpu_sflops             = 5.16691e+13
gpu_dflops             = 5.93039e+13
gpu_cflops             = 5.41058e+13
gpu_zflops             = 5.81039e+13
gpu_half_flops         = 3.9243e+08
cpu_sflops             = 2.07121e+11
cpu_dflops             = 1.14762e+11
cpu_cflops             = 2.05383e+11
cpu_zflops             = 1.16747e+11
cpu_half_flops         = 4.86451e+06
gpu_call_overhead      = 1.17868e-05
launch_latency         = 8e-06
min_cpu_share          = 0.03
