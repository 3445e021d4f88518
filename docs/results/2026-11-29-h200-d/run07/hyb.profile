# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.77177e+09
d2h_pageable           = 1.05904e+10
h2d_pinned             = 5.53394e+10
d2h_pinned             = 5.52405e+10
bidir_pinned           = 9.76825e+10
register_s_per_byte    = 5.96688e-11
unregister_s_per_byte  = 2.07817e-11
host_copy              = 3.56326e+10
host_copy_dual         = 5.21991e+10
copy_piece_half        = 0
gpu_sflops             = 5.1234e+13
gpu_dflops             = 5.8723e+13
gpu_cflops             = 5.41028e+13
gpu_zflops             = 5.77591e+13
gpu_half_flops         = 8.1103e+08
cpu_sflops             = 2.28896e+11
cpu_dflops             = 1.17694e+11
cpu_cflops             = 2.2725e+11
cpu_zflops             = 1.17653e+11
cpu_half_flops         = 4.45757e+06
gpu_call_overhead      = 0.000204572
launch_latency         = 8e-06
min_cpu_share          = 0.03
