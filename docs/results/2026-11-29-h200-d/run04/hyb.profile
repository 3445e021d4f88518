# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.89823e+09
d2h_pageable           = 1.41702e+10
h2d_pinned             = 5.53233e+10
d2h_pinned             = 5.52595e+10
bidir_pinned           = 9.17681e+10
register_s_per_byte    = 4.87423e-11
unregister_s_per_byte  = 2.11134e-11
host_copy              = 2.69999e+10
host_copy_dual         = 4.7956e+10
copy_piece_half        = 0
gpu_sflops             = 5.13239e+13
gpu_dflops             = 5.81995e+13
gpu_cflops             = 5.40986e+13
gpu_zflops             = 5.60269e+13
gpu_half_flops         = 3.18686e+08
cpu_sflops             = 1.99458e+11
cpu_dflops             = 1.03326e+11
cpu_cflops             = 2.05024e+11
cpu_zflops             = 1.09307e+11
cpu_half_flops         = 9.77025e+06
gpu_call_overhead      = 0.000348503
launch_latency         = 8e-06
min_cpu_share          = 0.03
