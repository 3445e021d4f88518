# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 7.02596e+09
d2h_pageable           = 1.09232e+10
h2d_pinned             = 5.53765e+10
d2h_pinned             = 5.52645e+10
bidir_pinned           = 1.01594e+11
register_s_per_byte    = 5.4576e-11
unregister_s_per_byte  = 1.91794e-11
host_copy              = 4.00553e+10
host_copy_dual         = 5.68544e+10
copy_piece_half        = 1071.07
gpu_sflops             = 5.12642e+13
gpu_dflops             = 5.84331e+13
gpu_cflops             = 5.41054e+13
gpu_zflops             = 5.72992e+13
gpu_half_flops         = 3.34567e+08
cpu_sflops             = 2.25534e+11
cpu_dflops             = 1.07601e+11
cpu_cflops             = 2.2102e+11
cpu_zflops             = 1.12138e+11
cpu_half_flops         = 3.52835e+06
gpu_call_overhead      = 0.000826371
launch_latency         = 8e-06
min_cpu_share          = 0.03
