# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 8.9161e+09
d2h_pageable           = 1.61551e+10
h2d_pinned             = 5.54703e+10
d2h_pinned             = 5.53398e+10
bidir_pinned           = 1.01635e+11
register_s_per_byte    = 3.4965e-11
unregister_s_per_byte  = 1.6345e-11
host_copy              = 3.96895e+10
host_copy_dual         = 5.89239e+10
copy_piece_half        = 0
gpu_sflops             = 5.11569e+13
gpu_dflops             = 5.96932e+13
gpu_cflops             = 5.40962e+13
gpu_zflops             = 5.91859e+13
gpu_half_flops         = 3.89237e+08
cpu_sflops             = 2.06281e+11
cpu_dflops             = 9.97838e+10
cpu_cflops             = 2.22211e+11
cpu_zflops             = 9.95972e+10
cpu_half_flops         = 4.43228e+06
gpu_call_overhead      = 0.000395159
launch_latency         = 8e-06
min_cpu_share          = 0.03
