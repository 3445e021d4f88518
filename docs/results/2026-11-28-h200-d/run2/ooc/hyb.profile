# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-28
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.80545e+09
d2h_pageable           = 1.18183e+10
h2d_pinned             = 5.5464e+10
d2h_pinned             = 5.52909e+10
bidir_pinned           = 1.00912e+11
register_s_per_byte    = 5.44141e-11
unregister_s_per_byte  = 1.91198e-11
host_copy              = 3.7492e+10
host_copy_dual         = 5.52127e+10
copy_piece_half        = 932.895
gpu_sflops             = 5.13227e+13
gpu_dflops             = 6.03019e+13
gpu_cflops             = 5.40989e+13
gpu_zflops             = 5.71386e+13
gpu_half_flops         = 4.29001e+08
cpu_sflops             = 2.2016e+11
cpu_dflops             = 1.10388e+11
cpu_cflops             = 2.19731e+11
cpu_zflops             = 1.1464e+11
cpu_half_flops         = 1.28598e+07
gpu_call_overhead      = 1.79963e-05
launch_latency         = 8e-06
min_cpu_share          = 0.03
