# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.12244e+09
d2h_pageable           = 1.1092e+10
h2d_pinned             = 5.49499e+10
d2h_pinned             = 5.52552e+10
bidir_pinned           = 9.65212e+10
register_s_per_byte    = 5.36807e-11
unregister_s_per_byte  = 1.92794e-11
host_copy              = 3.73476e+10
host_copy_dual         = 5.20805e+10
copy_piece_half        = 1062.23
gpu_sflops             = 5.12565e+13
gpu_dflops             = 5.89837e+13
gpu_cflops             = 5.41059e+13
gpu_zflops             = 5.90387e+13
gpu_half_flops         = 3.70792e+08
cpu_sflops             = 2.08395e+11
cpu_dflops             = 1.10274e+11
cpu_cflops             = 2.09118e+11
cpu_zflops             = 1.07211e+11
cpu_half_flops         = 3.29193e+06
gpu_call_overhead      = 0.000353586
launch_latency         = 8e-06
min_cpu_share          = 0.03
