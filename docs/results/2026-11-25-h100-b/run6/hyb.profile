# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H100 80GB HBM3; 2026-11-25
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.02248e+09
d2h_pageable           = 1.1649e+10
h2d_pinned             = 5.31582e+10
d2h_pinned             = 5.51514e+10
bidir_pinned           = 8.12809e+10
register_s_per_byte    = 6.59702e-11
unregister_s_per_byte  = 2.07174e-11
host_copy              = 2.88101e+10
host_copy_dual         = 3.98639e+10
copy_piece_half        = 376.934
gpu_sflops             = 5.16405e+13
gpu_dflops             = 5.7871e+13
gpu_cflops             = 5.45103e+13
gpu_zflops             = 5.85982e+13
gpu_half_flops         = 3.19211e+08
cpu_sflops             = 1.88177e+11
cpu_dflops             = 9.92523e+10
cpu_cflops             = 1.46475e+11
cpu_zflops             = 1.03375e+11
cpu_half_flops         = 1.44188e+07
gpu_call_overhead      = 0.000237863
launch_latency         = 8e-06
min_cpu_share          = 0.03
