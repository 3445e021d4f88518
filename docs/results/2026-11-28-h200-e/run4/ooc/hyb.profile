# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-28
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.58477e+09
d2h_pageable           = 1.10992e+10
h2d_pinned             = 5.52738e+10
d2h_pinned             = 5.52306e+10
bidir_pinned           = 9.4639e+10
register_s_per_byte    = 4.6527e-11
unregister_s_per_byte  = 1.65303e-11
host_copy              = 3.54644e+10
host_copy_dual         = 5.23695e+10
copy_piece_half        = 0
gpu_sflops             = 5.12659e+13
gpu_dflops             = 5.65396e+13
gpu_cflops             = 5.40964e+13
gpu_zflops             = 5.80125e+13
gpu_half_flops         = 2.78022e+08
cpu_sflops             = 1.91884e+11
cpu_dflops             = 1.18641e+11
cpu_cflops             = 2.39228e+11
cpu_zflops             = 1.12171e+11
cpu_half_flops         = 8.1448e+06
gpu_call_overhead      = 0.00016366
launch_latency         = 8e-06
min_cpu_share          = 0.03
