# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H100 80GB HBM3; 2026-11-25
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 7.54958e+09
d2h_pageable           = 1.01659e+10
h2d_pinned             = 5.49471e+10
d2h_pinned             = 5.48836e+10
bidir_pinned           = 8.93271e+10
register_s_per_byte    = 5.48092e-11
unregister_s_per_byte  = 1.95051e-11
host_copy              = 3.62712e+10
host_copy_dual         = 6.27176e+10
copy_piece_half        = 0
gpu_sflops             = 5.1639e+13
gpu_dflops             = 5.89165e+13
gpu_cflops             = 5.45132e+13
gpu_zflops             = 5.74495e+13
gpu_half_flops         = 3.85642e+08
cpu_sflops             = 2.22296e+11
cpu_dflops             = 1.17656e+11
cpu_cflops             = 2.23405e+11
cpu_zflops             = 1.10815e+11
cpu_half_flops         = 1.03215e+07
gpu_call_overhead      = 0.000228635
launch_latency         = 8e-06
min_cpu_share          = 0.03
