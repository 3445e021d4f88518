# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-28
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 8.05184e+09
d2h_pageable           = 1.30978e+10
h2d_pinned             = 5.54226e+10
d2h_pinned             = 5.53133e+10
bidir_pinned           = 1.01283e+11
register_s_per_byte    = 4.49076e-11
unregister_s_per_byte  = 1.71022e-11
host_copy              = 3.89926e+10
host_copy_dual         = 5.83116e+10
copy_piece_half        = 482.648
gpu_sflops             = 5.11056e+13
gpu_dflops             = 5.90848e+13
gpu_cflops             = 5.41018e+13
gpu_zflops             = 5.94034e+13
gpu_half_flops         = 3.76996e+08
cpu_sflops             = 2.40762e+11
cpu_dflops             = 1.13882e+11
cpu_cflops             = 2.34776e+11
cpu_zflops             = 1.19781e+11
cpu_half_flops         = 4.22613e+06
gpu_call_overhead      = 0
launch_latency         = 8e-06
min_cpu_share          = 0.03
