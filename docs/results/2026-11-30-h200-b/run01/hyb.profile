# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-30
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.1877e+09
d2h_pageable           = 1.34174e+10
h2d_pinned             = 5.49801e+10
d2h_pinned             = 5.53781e+10
bidir_pinned           = 9.43915e+10
register_s_per_byte    = 6.25821e-11
unregister_s_per_byte  = 2.07534e-11
host_copy              = 3.26164e+10
host_copy_dual         = 4.43409e+10
copy_piece_half        = 517.05
gpu_sflops             = 5.11286e+13
gpu_dflops             = 5.93671e+13
gpu_cflops             = 5.40991e+13
gpu_zflops             = 5.94713e+13
gpu_half_flops         = 3.8184e+08
cpu_sflops             = 2.19422e+11
cpu_dflops             = 1.10605e+11
cpu_cflops             = 2.20712e+11
cpu_zflops             = 1.10285e+11
cpu_half_flops         = 7.99741e+06
gpu_call_overhead      = 0.000518767
launch_latency         = 8e-06
min_cpu_share          = 0.03
