# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-30
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.75116e+09
d2h_pageable           = 9.96087e+09
h2d_pinned             = 5.52537e+10
d2h_pinned             = 5.51966e+10
bidir_pinned           = 1.00453e+11
register_s_per_byte    = 4.84156e-11
unregister_s_per_byte  = 1.92404e-11
host_copy              = 3.62681e+10
host_copy_dual         = 5.57515e+10
copy_piece_half        = 0
gpu_sflops             = 5.1245e+13
gpu_dflops             = 5.75708e+13
gpu_cflops             = 5.40794e+13
gpu_zflops             = 5.67672e+13
gpu_half_flops         = 3.06044e+08
cpu_sflops             = 2.23055e+11
cpu_dflops             = 1.10683e+11
cpu_cflops             = 2.28584e+11
cpu_zflops             = 1.12363e+11
cpu_half_flops         = 4.87281e+06
gpu_call_overhead      = 0.000145567
launch_latency         = 8e-06
min_cpu_share          = 0.03
