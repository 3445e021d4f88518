/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading this process's own memory without a fault: through process_vm_readv, which
   reports a page no longer mapped instead of raising SIGSEGV. A thread other than the
   caller that handed the addresses over (a background build) reads them so, since the
   program may free or unmap them meanwhile. */
#ifndef HYB_SELF_READ_H
#define HYB_SELF_READ_H

#include <stddef.h>

#include "hyb_status.h"

/* Copy `bytes` at src into dst. HYB_OK when all were read; HYB_E_INVALID where a page is
   not mapped; HYB_E_NOT_SUPPORTED where the read is refused (EPERM, EACCES, ENOSYS: a
   seccomp filter, which will refuse it again); HYB_E_NO_MEMORY (ENOMEM). An interrupted
   read goes on. dst may then hold part of the bytes. Thread-safe. */
hyb_status_t hyb_self_read( void* dst, const void* src, size_t bytes );

#endif
