# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-28
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 8.02947e+09
d2h_pageable           = 1.47285e+10
h2d_pinned             = 5.53772e+10
d2h_pinned             = 5.52679e+10
bidir_pinned           = 9.92935e+10
register_s_per_byte    = 4.33151e-11
unregister_s_per_byte  = 1.84159e-11
host_copy              = 3.95794e+10
host_copy_dual         = 5.87089e+10
copy_piece_half        = 0
gpu_sflops             = 5.11128e+13
gpu_dflops             = 5.87084e+13
gpu_cflops             = 5.40995e+13
gpu_zflops             = 5.7909e+13
gpu_half_flops         = 3.53399e+08
cpu_sflops             = 2.4259e+11
cpu_dflops             = 1.14741e+11
cpu_cflops             = 2.35735e+11
cpu_zflops             = 1.21713e+11
cpu_half_flops         = 6.69254e+06
gpu_call_overhead      = 0.000403445
launch_latency         = 8e-06
min_cpu_share          = 0.03
