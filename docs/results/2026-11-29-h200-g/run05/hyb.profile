# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.94926e+09
d2h_pageable           = 1.00566e+10
h2d_pinned             = 5.53528e+10
d2h_pinned             = 5.52403e+10
bidir_pinned           = 9.97405e+10
register_s_per_byte    = 5.55323e-11
unregister_s_per_byte  = 1.97652e-11
host_copy              = 3.57348e+10
host_copy_dual         = 5.68035e+10
copy_piece_half        = 0
gpu_sflops             = 5.12459e+13
gpu_dflops             = 5.84608e+13
gpu_cflops             = 5.40982e+13
gpu_zflops             = 5.70146e+13
gpu_half_flops         = 7.14755e+08
cpu_sflops             = 2.13895e+11
cpu_dflops             = 1.0866e+11
cpu_cflops             = 2.29705e+11
cpu_zflops             = 1.1439e+11
cpu_half_flops         = 4.12167e+06
gpu_call_overhead      = 0.000210931
launch_latency         = 8e-06
min_cpu_share          = 0.03
