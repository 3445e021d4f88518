# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H100 80GB HBM3; 2026-11-25
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 8.20462e+09
d2h_pageable           = 1.28744e+10
h2d_pinned             = 5.51018e+10
d2h_pinned             = 5.518e+10
bidir_pinned           = 9.01829e+10
register_s_per_byte    = 6.80775e-11
unregister_s_per_byte  = 2.26954e-11
host_copy              = 4.2856e+10
host_copy_dual         = 5.36337e+10
copy_piece_half        = 1297.1
gpu_sflops             = 5.16673e+13
gpu_dflops             = 5.82883e+13
gpu_cflops             = 5.41029e+13
gpu_zflops             = 5.81864e+13
gpu_half_flops         = 3.51918e+08
cpu_sflops             = 9.09946e+11
cpu_dflops             = 4.82864e+11
cpu_cflops             = 1.0132e+12
cpu_zflops             = 4.82308e+11
cpu_half_flops         = 2.7779e+07
gpu_call_overhead      = 0.00055286
launch_latency         = 8e-06
min_cpu_share          = 0.03
