# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 32 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 7.45685e+09
d2h_pageable           = 1.23146e+10
h2d_pinned             = 5.53771e+10
d2h_pinned             = 5.53173e+10
bidir_pinned           = 1.01541e+11
register_s_per_byte    = 7.69413e-11
unregister_s_per_byte  = 2.14251e-11
host_copy              = 4.56589e+10
host_copy_dual         = 5.97686e+10
copy_piece_half        = 1575.69
gpu_sflops             = 5.12751e+13
gpu_dflops             = 5.99907e+13
gpu_cflops             = 5.41032e+13
gpu_zflops             = 5.92375e+13
gpu_half_flops         = 4.35284e+08
cpu_sflops             = 4.32797e+11
cpu_dflops             = 2.2921e+11
cpu_cflops             = 4.36012e+11
cpu_zflops             = 2.24722e+11
cpu_half_flops         = 2.641e+07
gpu_call_overhead      = 0.000479158
launch_latency         = 8e-06
min_cpu_share          = 0.03
