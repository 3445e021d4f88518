# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.39367e+09
d2h_pageable           = 1.21145e+10
h2d_pinned             = 5.54187e+10
d2h_pinned             = 5.52826e+10
bidir_pinned           = 9.77277e+10
register_s_per_byte    = 5.81241e-11
unregister_s_per_byte  = 2.07445e-11
host_copy              = 3.62525e+10
host_copy_dual         = 5.48429e+10
copy_piece_half        = 473.247
gpu_sflops             = 5.11019e+13
gpu_dflops             = 6.031e+13
gpu_cflops             = 5.41006e+13
gpu_zflops             = 5.88747e+13
gpu_half_flops         = 4.10816e+08
cpu_sflops             = 1.82585e+11
cpu_dflops             = 7.60616e+10
cpu_cflops             = 1.72318e+11
cpu_zflops             = 7.76904e+10
cpu_half_flops         = 1.9814e+07
gpu_call_overhead      = 0.00014081
launch_latency         = 8e-06
min_cpu_share          = 0.03
