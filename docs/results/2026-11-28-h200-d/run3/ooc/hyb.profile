# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-28
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 9.36219e+09
d2h_pageable           = 1.73383e+10
h2d_pinned             = 5.52773e+10
d2h_pinned             = 5.52863e+10
bidir_pinned           = 1.01481e+11
register_s_per_byte    = 3.60489e-11
unregister_s_per_byte  = 1.47565e-11
host_copy              = 4.48876e+10
host_copy_dual         = 6.39294e+10
copy_piece_half        = 725.11
gpu_sflops             = 5.12574e+13
gpu_dflops             = 5.80626e+13
gpu_cflops             = 5.40939e+13
gpu_zflops             = 5.86921e+13
gpu_half_flops         = 3.34809e+08
cpu_sflops             = 2.61686e+11
cpu_dflops             = 1.43259e+11
cpu_cflops             = 3.16779e+11
cpu_zflops             = 1.33904e+11
cpu_half_flops         = 9.51824e+06
gpu_call_overhead      = 0.000371401
launch_latency         = 8e-06
min_cpu_share          = 0.03
