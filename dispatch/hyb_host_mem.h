/* SPDX-License-Identifier: BSD-3-Clause */
/* Host memory handed to programs for their workloads' arrays (hyblas_host_alloc in
   include/hyblas_ext.h): page-locked by the device's driver where a device is in use, so
   that a workload moving it needs no page-locking of its own. */
#ifndef HYB_HOST_MEM_H
#define HYB_HOST_MEM_H

#include <stddef.h>

/* 1 when [p, p + bytes) lies inside one page-locked block that hyblas_host_alloc gave this
   process and that is not yet freed, else 0. Thread-safe. */
int hyb_host_mem_pinned( const void* p, size_t bytes );

#endif
