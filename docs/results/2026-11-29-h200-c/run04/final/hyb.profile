# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 5.89145e+09
d2h_pageable           = 8.84053e+09
h2d_pinned             = 5.53035e+10
d2h_pinned             = 5.51135e+10
bidir_pinned           = 9.65186e+10
register_s_per_byte    = 5.67407e-11
unregister_s_per_byte  = 2.11915e-11
host_copy              = 4.04614e+10
host_copy_dual         = 5.49473e+10
copy_piece_half        = 594.58
gpu_sflops             = 5.10677e+13
gpu_dflops             = 6.18828e+13
gpu_cflops             = 5.4101e+13
gpu_zflops             = 5.84603e+13
gpu_half_flops         = 4.97734e+08
cpu_sflops             = 2.04713e+11
cpu_dflops             = 1.05907e+11
cpu_cflops             = 2.08164e+11
cpu_zflops             = 1.06029e+11
cpu_half_flops         = 3.18527e+06
gpu_call_overhead      = 0.000333814
launch_latency         = 8e-06
min_cpu_share          = 0.03
