# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 7.57385e+09
d2h_pageable           = 1.24757e+10
h2d_pinned             = 5.53443e+10
d2h_pinned             = 5.52475e+10
bidir_pinned           = 9.63986e+10
register_s_per_byte    = 5.5001e-11
unregister_s_per_byte  = 2.08332e-11
host_copy              = 3.67908e+10
host_copy_dual         = 5.04196e+10
copy_piece_half        = 746.749
gpu_sflops             = 5.12636e+13
gpu_dflops             = 5.89286e+13
gpu_cflops             = 5.40914e+13
gpu_zflops             = 5.67074e+13
gpu_half_flops         = 3.60142e+08
cpu_sflops             = 2.22054e+11
cpu_dflops             = 1.12676e+11
cpu_cflops             = 2.16159e+11
cpu_zflops             = 1.12867e+11
cpu_half_flops         = 1.43517e+07
gpu_call_overhead      = 0.000106578
launch_latency         = 8e-06
min_cpu_share          = 0.03
