# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H100 80GB HBM3; 2026-11-25
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 7.24373e+09
d2h_pageable           = 1.05602e+10
h2d_pinned             = 5.50407e+10
d2h_pinned             = 5.50315e+10
bidir_pinned           = 9.20713e+10
register_s_per_byte    = 6.44314e-11
unregister_s_per_byte  = 2.12322e-11
host_copy              = 4.10597e+10
host_copy_dual         = 5.99551e+10
copy_piece_half        = 129.315
gpu_sflops             = 5.20323e+13
gpu_dflops             = 6.09447e+13
gpu_cflops             = 5.41061e+13
gpu_zflops             = 5.85049e+13
gpu_half_flops         = 5.8986e+08
cpu_sflops             = 1.76339e+11
cpu_dflops             = 9.69809e+10
cpu_cflops             = 1.65073e+11
cpu_zflops             = 1.05483e+11
cpu_half_flops         = 1.04881e+07
gpu_call_overhead      = 0.000720299
launch_latency         = 8e-06
min_cpu_share          = 0.03
