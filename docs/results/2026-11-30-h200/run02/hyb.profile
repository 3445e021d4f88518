# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-30
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 7.60486e+09
d2h_pageable           = 1.35675e+10
h2d_pinned             = 5.52145e+10
d2h_pinned             = 5.51279e+10
bidir_pinned           = 9.34685e+10
register_s_per_byte    = 4.51194e-11
unregister_s_per_byte  = 1.76498e-11
host_copy              = 3.86564e+10
host_copy_dual         = 5.13168e+10
copy_piece_half        = 672.572
gpu_sflops             = 5.1269e+13
gpu_dflops             = 5.86133e+13
gpu_cflops             = 5.41019e+13
gpu_zflops             = 5.70562e+13
gpu_half_flops         = 3.48973e+08
cpu_sflops             = 2.17039e+11
cpu_dflops             = 1.14763e+11
cpu_cflops             = 2.25817e+11
cpu_zflops             = 1.13314e+11
cpu_half_flops         = 5.7849e+06
gpu_call_overhead      = 0.000130477
launch_latency         = 8e-06
min_cpu_share          = 0.03
