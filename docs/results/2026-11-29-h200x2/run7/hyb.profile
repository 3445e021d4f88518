# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 32 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.07758e+09
d2h_pageable           = 1.12974e+10
h2d_pinned             = 5.50576e+10
d2h_pinned             = 5.50836e+10
bidir_pinned           = 9.08783e+10
register_s_per_byte    = 7.84971e-11
unregister_s_per_byte  = 2.18209e-11
host_copy              = 3.43828e+10
host_copy_dual         = 4.9965e+10
copy_piece_half        = 0
gpu_sflops             = 5.12799e+13
gpu_dflops             = 5.93371e+13
gpu_cflops             = 5.41049e+13
gpu_zflops             = 5.80353e+13
gpu_half_flops         = 3.96513e+08
cpu_sflops             = 3.85679e+11
cpu_dflops             = 2.07262e+11
cpu_cflops             = 4.07333e+11
cpu_zflops             = 2.14377e+11
cpu_half_flops         = 1.64051e+07
gpu_call_overhead      = 0.000720048
launch_latency         = 8e-06
min_cpu_share          = 0.03
