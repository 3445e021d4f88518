# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H100 80GB HBM3; 2026-11-25
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 7.76578e+09
d2h_pageable           = 1.16637e+10
h2d_pinned             = 5.48108e+10
d2h_pinned             = 5.51218e+10
bidir_pinned           = 8.71578e+10
register_s_per_byte    = 5.14779e-11
unregister_s_per_byte  = 2.05563e-11
host_copy              = 4.27469e+10
host_copy_dual         = 4.64254e+10
copy_piece_half        = 362.323
gpu_sflops             = 5.16283e+13
gpu_dflops             = 5.83306e+13
gpu_cflops             = 5.45076e+13
gpu_zflops             = 5.69175e+13
gpu_half_flops         = 3.55599e+08
cpu_sflops             = 2.04348e+11
cpu_dflops             = 1.12052e+11
cpu_cflops             = 2.1397e+11
cpu_zflops             = 1.10029e+11
cpu_half_flops         = 7.04593e+06
gpu_call_overhead      = 0.000243632
launch_latency         = 8e-06
min_cpu_share          = 0.03
