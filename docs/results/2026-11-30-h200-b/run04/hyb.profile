# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-30
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 7.67772e+09
d2h_pageable           = 1.40175e+10
h2d_pinned             = 5.53535e+10
d2h_pinned             = 5.5236e+10
bidir_pinned           = 1.01605e+11
register_s_per_byte    = 4.00601e-11
unregister_s_per_byte  = 1.53266e-11
host_copy              = 3.99205e+10
host_copy_dual         = 5.52014e+10
copy_piece_half        = 0
gpu_sflops             = 5.12592e+13
gpu_dflops             = 5.84305e+13
gpu_cflops             = 5.40934e+13
gpu_zflops             = 5.61155e+13
gpu_half_flops         = 3.56147e+08
cpu_sflops             = 2.55754e+11
cpu_dflops             = 1.24808e+11
cpu_cflops             = 2.55533e+11
cpu_zflops             = 1.28986e+11
cpu_half_flops         = 9.02368e+06
gpu_call_overhead      = 0.000361037
launch_latency         = 8e-06
min_cpu_share          = 0.03
