# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 7.10545e+09
d2h_pageable           = 1.31043e+10
h2d_pinned             = 5.52963e+10
d2h_pinned             = 5.5195e+10
bidir_pinned           = 1.00592e+11
register_s_per_byte    = 4.42185e-11
unregister_s_per_byte  = 1.76709e-11
host_copy              = 4.08789e+10
host_copy_dual         = 5.76864e+10
copy_piece_half        = 409.676
gpu_sflops             = 5.12838e+13
gpu_dflops             = 5.83172e+13
gpu_cflops             = 5.40991e+13
gpu_zflops             = 5.88583e+13
gpu_half_flops         = 3.46442e+08
cpu_sflops             = 2.48661e+11
cpu_dflops             = 1.11713e+11
cpu_cflops             = 2.2763e+11
cpu_zflops             = 1.23713e+11
cpu_half_flops         = 5.64302e+06
gpu_call_overhead      = 0.000290819
launch_latency         = 8e-06
min_cpu_share          = 0.03
