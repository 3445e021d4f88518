# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.10349e+09
d2h_pageable           = 1.2105e+10
h2d_pinned             = 5.45877e+10
d2h_pinned             = 5.51935e+10
bidir_pinned           = 9.42457e+10
register_s_per_byte    = 4.17094e-11
unregister_s_per_byte  = 1.69246e-11
host_copy              = 3.6539e+10
host_copy_dual         = 4.69363e+10
copy_piece_half        = 938.349
gpu_sflops             = 5.12972e+13
gpu_dflops             = 5.77006e+13
gpu_cflops             = 5.40964e+13
gpu_zflops             = 5.8731e+13
gpu_half_flops         = 3.02714e+08
cpu_sflops             = 2.40472e+11
cpu_dflops             = 1.1853e+11
cpu_cflops             = 2.34982e+11
cpu_zflops             = 1.32596e+11
cpu_half_flops         = 1.22786e+07
gpu_call_overhead      = 0.000232922
launch_latency         = 8e-06
min_cpu_share          = 0.03
