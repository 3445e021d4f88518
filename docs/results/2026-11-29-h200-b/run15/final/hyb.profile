# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 9.0985e+09
d2h_pageable           = 1.59815e+10
h2d_pinned             = 5.54587e+10
d2h_pinned             = 5.53218e+10
bidir_pinned           = 1.01037e+11
register_s_per_byte    = 3.85108e-11
unregister_s_per_byte  = 1.52279e-11
host_copy              = 3.9748e+10
host_copy_dual         = 5.99294e+10
copy_piece_half        = 0
gpu_sflops             = 5.11669e+13
gpu_dflops             = 5.97599e+13
gpu_cflops             = 5.41017e+13
gpu_zflops             = 5.81042e+13
gpu_half_flops         = 4.03164e+08
cpu_sflops             = 2.52122e+11
cpu_dflops             = 1.23434e+11
cpu_cflops             = 2.56731e+11
cpu_zflops             = 1.28323e+11
cpu_half_flops         = 8.81681e+06
gpu_call_overhead      = 0.000651827
launch_latency         = 8e-06
min_cpu_share          = 0.03
