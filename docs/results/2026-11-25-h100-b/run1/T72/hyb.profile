# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H100 80GB HBM3; 2026-11-25
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 9.04645e+09
d2h_pageable           = 1.38042e+10
h2d_pinned             = 5.52917e+10
d2h_pinned             = 5.51089e+10
bidir_pinned           = 9.52728e+10
register_s_per_byte    = 3.6524e-11
unregister_s_per_byte  = 1.72975e-11
host_copy              = 4.99229e+10
host_copy_dual         = 6.224e+10
copy_piece_half        = 96.0308
gpu_sflops             = 5.16511e+13
gpu_dflops             = 5.8332e+13
gpu_cflops             = 5.4094e+13
gpu_zflops             = 5.80176e+13
gpu_half_flops         = 3.56779e+08
cpu_sflops             = 2.21665e+11
cpu_dflops             = 1.09628e+11
cpu_cflops             = 2.16711e+11
cpu_zflops             = 1.05549e+11
cpu_half_flops         = 8.75782e+06
gpu_call_overhead      = 0.000618436
launch_latency         = 8e-06
min_cpu_share          = 0.03
