# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.77547e+09
d2h_pageable           = 1.14817e+10
h2d_pinned             = 5.5139e+10
d2h_pinned             = 5.52354e+10
bidir_pinned           = 1.01657e+11
register_s_per_byte    = 3.93584e-11
unregister_s_per_byte  = 1.63715e-11
host_copy              = 4.0533e+10
host_copy_dual         = 5.23903e+10
copy_piece_half        = 2031.11
gpu_sflops             = 5.11781e+13
gpu_dflops             = 6.08015e+13
gpu_cflops             = 5.41015e+13
gpu_zflops             = 5.88898e+13
gpu_half_flops         = 4.47621e+08
cpu_sflops             = 2.26316e+11
cpu_dflops             = 1.16472e+11
cpu_cflops             = 2.34023e+11
cpu_zflops             = 1.18239e+11
cpu_half_flops         = 6.88829e+06
gpu_call_overhead      = 0
launch_latency         = 8e-06
min_cpu_share          = 0.03
