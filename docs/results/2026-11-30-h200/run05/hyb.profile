# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-30
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.34534e+09
d2h_pageable           = 9.64147e+09
h2d_pinned             = 5.52805e+10
d2h_pinned             = 5.51946e+10
bidir_pinned           = 9.84825e+10
register_s_per_byte    = 5.35709e-11
unregister_s_per_byte  = 2.01862e-11
host_copy              = 3.85957e+10
host_copy_dual         = 5.63678e+10
copy_piece_half        = 55.8506
gpu_sflops             = 5.12588e+13
gpu_dflops             = 6.08999e+13
gpu_cflops             = 5.41082e+13
gpu_zflops             = 5.71736e+13
gpu_half_flops         = 4.34283e+08
cpu_sflops             = 2.11266e+11
cpu_dflops             = 1.1028e+11
cpu_cflops             = 2.27339e+11
cpu_zflops             = 1.07544e+11
cpu_half_flops         = 4.29886e+06
gpu_call_overhead      = 0
launch_latency         = 8e-06
min_cpu_share          = 0.03
