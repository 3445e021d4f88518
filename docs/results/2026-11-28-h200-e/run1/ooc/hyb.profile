# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-28
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.3962e+09
d2h_pageable           = 1.03838e+10
h2d_pinned             = 5.52897e+10
d2h_pinned             = 5.52738e+10
bidir_pinned           = 9.73967e+10
register_s_per_byte    = 6.30014e-11
unregister_s_per_byte  = 2.06864e-11
host_copy              = 3.73871e+10
host_copy_dual         = 4.95753e+10
copy_piece_half        = 721.09
gpu_sflops             = 5.12706e+13
gpu_dflops             = 5.77547e+13
gpu_cflops             = 5.40964e+13
gpu_zflops             = 5.64737e+13
gpu_half_flops         = 3.27929e+08
cpu_sflops             = 2.15588e+11
cpu_dflops             = 1.14741e+11
cpu_cflops             = 2.30961e+11
cpu_zflops             = 1.11214e+11
cpu_half_flops         = 5.92857e+06
gpu_call_overhead      = 0.000705127
launch_latency         = 8e-06
min_cpu_share          = 0.03
