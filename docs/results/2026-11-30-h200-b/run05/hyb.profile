# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-30
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.93293e+09
d2h_pageable           = 1.45039e+10
h2d_pinned             = 5.54936e+10
d2h_pinned             = 5.52982e+10
bidir_pinned           = 1.0159e+11
register_s_per_byte    = 3.98085e-11
unregister_s_per_byte  = 1.78124e-11
host_copy              = 4.12281e+10
host_copy_dual         = 5.65424e+10
copy_piece_half        = 0
gpu_sflops             = 5.11251e+13
gpu_dflops             = 5.90703e+13
gpu_cflops             = 5.40722e+13
gpu_zflops             = 5.78526e+13
gpu_half_flops         = 3.79401e+08
cpu_sflops             = 2.35339e+11
cpu_dflops             = 1.23755e+11
cpu_cflops             = 2.47705e+11
cpu_zflops             = 1.24731e+11
cpu_half_flops         = 7.79695e+06
gpu_call_overhead      = 0.00023157
launch_latency         = 8e-06
min_cpu_share          = 0.03
