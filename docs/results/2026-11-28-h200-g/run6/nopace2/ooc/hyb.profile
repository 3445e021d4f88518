# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-28
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.62825e+09
d2h_pageable           = 1.14357e+10
h2d_pinned             = 5.53637e+10
d2h_pinned             = 5.5135e+10
bidir_pinned           = 9.98594e+10
register_s_per_byte    = 5.17584e-11
unregister_s_per_byte  = 1.98202e-11
host_copy              = 3.59629e+10
host_copy_dual         = 5.49868e+10
copy_piece_half        = 1008.67
gpu_sflops             = 5.10992e+13
gpu_dflops             = 6.01541e+13
gpu_cflops             = 5.40721e+13
gpu_zflops             = 5.75695e+13
gpu_half_flops         = 4.06515e+08
cpu_sflops             = 2.03848e+11
cpu_dflops             = 1.08925e+11
cpu_cflops             = 2.24784e+11
cpu_zflops             = 1.04957e+11
cpu_half_flops         = 9.70325e+06
gpu_call_overhead      = 0
launch_latency         = 8e-06
min_cpu_share          = 0.03
