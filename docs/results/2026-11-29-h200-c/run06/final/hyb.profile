# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 9.33131e+09
d2h_pageable           = 1.73467e+10
h2d_pinned             = 5.54681e+10
d2h_pinned             = 5.53486e+10
bidir_pinned           = 1.01436e+11
register_s_per_byte    = 4.93606e-11
unregister_s_per_byte  = 1.74146e-11
host_copy              = 4.13666e+10
host_copy_dual         = 5.72408e+10
copy_piece_half        = 0
gpu_sflops             = 5.11179e+13
gpu_dflops             = 5.98484e+13
gpu_cflops             = 5.40468e+13
gpu_zflops             = 5.8843e+13
gpu_half_flops         = 4.01581e+08
cpu_sflops             = 2.22622e+11
cpu_dflops             = 1.32997e+11
cpu_cflops             = 2.3211e+11
cpu_zflops             = 1.34961e+11
cpu_half_flops         = 8.81078e+06
gpu_call_overhead      = 0.000184991
launch_latency         = 8e-06
min_cpu_share          = 0.03
