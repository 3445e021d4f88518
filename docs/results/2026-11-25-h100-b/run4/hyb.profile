# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H100 80GB HBM3; 2026-11-25
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 7.58556e+09
d2h_pageable           = 1.10961e+10
h2d_pinned             = 5.48898e+10
d2h_pinned             = 5.50836e+10
bidir_pinned           = 8.71538e+10
register_s_per_byte    = 6.07144e-11
unregister_s_per_byte  = 1.94431e-11
host_copy              = 4.14909e+10
host_copy_dual         = 5.75918e+10
copy_piece_half        = 548.395
gpu_sflops             = 5.16664e+13
gpu_dflops             = 6.02585e+13
gpu_cflops             = 5.40914e+13
gpu_zflops             = 5.74769e+13
gpu_half_flops         = 4.29072e+08
cpu_sflops             = 1.933e+11
cpu_dflops             = 1.14676e+11
cpu_cflops             = 2.30121e+11
cpu_zflops             = 1.2074e+11
cpu_half_flops         = 5.17665e+06
gpu_call_overhead      = 0.000183857
launch_latency         = 8e-06
min_cpu_share          = 0.03
