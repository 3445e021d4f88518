# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-30
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 8.8199e+09
d2h_pageable           = 1.47595e+10
h2d_pinned             = 5.54937e+10
d2h_pinned             = 5.52963e+10
bidir_pinned           = 1.01603e+11
register_s_per_byte    = 3.94629e-11
unregister_s_per_byte  = 1.75349e-11
host_copy              = 3.65082e+10
host_copy_dual         = 5.58552e+10
copy_piece_half        = 0
gpu_sflops             = 5.13116e+13
gpu_dflops             = 5.87435e+13
gpu_cflops             = 5.41007e+13
gpu_zflops             = 5.89759e+13
gpu_half_flops         = 3.47751e+08
cpu_sflops             = 1.91823e+11
cpu_dflops             = 9.55863e+10
cpu_cflops             = 2.31285e+11
cpu_zflops             = 1.14513e+11
cpu_half_flops         = 6.39778e+06
gpu_call_overhead      = 0.000542509
launch_latency         = 8e-06
min_cpu_share          = 0.03
