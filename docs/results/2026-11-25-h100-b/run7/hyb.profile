# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H100 80GB HBM3; 2026-11-25
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 7.41001e+09
d2h_pageable           = 9.56642e+09
h2d_pinned             = 5.48025e+10
d2h_pinned             = 5.50394e+10
bidir_pinned           = 9.00694e+10
register_s_per_byte    = 5.87576e-11
unregister_s_per_byte  = 2.1402e-11
host_copy              = 3.6073e+10
host_copy_dual         = 4.06479e+10
copy_piece_half        = 1639.27
gpu_sflops             = 5.16162e+13
gpu_dflops             = 5.91764e+13
gpu_cflops             = 5.4106e+13
gpu_zflops             = 5.82089e+13
gpu_half_flops         = 3.60081e+08
cpu_sflops             = 1.46276e+11
cpu_dflops             = 1.05353e+11
cpu_cflops             = 2.04846e+11
cpu_zflops             = 1.04583e+11
cpu_half_flops         = 8.01181e+06
gpu_call_overhead      = 0.000143666
launch_latency         = 8e-06
min_cpu_share          = 0.03
