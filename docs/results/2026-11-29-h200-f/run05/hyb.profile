# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 5.8073e+09
d2h_pageable           = 1.01513e+10
h2d_pinned             = 5.5163e+10
d2h_pinned             = 5.51714e+10
bidir_pinned           = 1.00529e+11
register_s_per_byte    = 5.68426e-11
unregister_s_per_byte  = 2.01671e-11
host_copy              = 3.14398e+10
host_copy_dual         = 3.95022e+10
copy_piece_half        = 831.233
gpu_sflops             = 5.12498e+13
gpu_dflops             = 5.89197e+13
gpu_cflops             = 5.40886e+13
gpu_zflops             = 5.81467e+13
gpu_half_flops         = 9.36328e+08
cpu_sflops             = 2.0005e+11
cpu_dflops             = 1.03399e+11
cpu_cflops             = 1.93116e+11
cpu_zflops             = 1.03664e+11
cpu_half_flops         = 1.14289e+07
gpu_call_overhead      = 0.000215504
launch_latency         = 8e-06
min_cpu_share          = 0.03
