# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.58552e+09
d2h_pageable           = 1.15342e+10
h2d_pinned             = 5.50255e+10
d2h_pinned             = 5.522e+10
bidir_pinned           = 9.08507e+10
register_s_per_byte    = 4.83136e-11
unregister_s_per_byte  = 1.92971e-11
host_copy              = 3.41565e+10
host_copy_dual         = 4.6595e+10
copy_piece_half        = 451.346
gpu_sflops             = 5.11263e+13
gpu_dflops             = 5.94944e+13
gpu_cflops             = 5.41013e+13
gpu_zflops             = 5.83174e+13
gpu_half_flops         = 3.72033e+08
cpu_sflops             = 2.09158e+11
cpu_dflops             = 1.01125e+11
cpu_cflops             = 1.77246e+11
cpu_zflops             = 8.25237e+10
cpu_half_flops         = 1.09336e+07
gpu_call_overhead      = 0.000329352
launch_latency         = 8e-06
min_cpu_share          = 0.03
