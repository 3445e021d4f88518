/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading this process's own memory without a fault (see hyb_self_read.h). */
#define _GNU_SOURCE
#include "hyb_self_read.h"

#include <errno.h>
#include <stdint.h>
#include <sys/uio.h>
#include <unistd.h>

hyb_status_t hyb_self_read( void* dst, const void* src, size_t bytes )
{
	const pid_t pid  = getpid();
	size_t      done = 0;
	while ( done < bytes )
	{
		struct iovec l = { (char*)dst + done, bytes - done };
		struct iovec r = { (void*)( (uintptr_t)src + done ), bytes - done };
		ssize_t      n = process_vm_readv( pid, &l, 1, &r, 1, 0 );
		if ( n > 0 )
			done += (size_t)n;
		else if ( n < 0 && errno == EINTR )
			continue;
		else if ( n < 0 && ( errno == EPERM || errno == EACCES || errno == ENOSYS ) )
			return HYB_E_NOT_SUPPORTED;
		else if ( n < 0 && errno == ENOMEM )
			return HYB_E_NO_MEMORY;
		else
			return HYB_E_INVALID; /* a page not mapped (EFAULT, or nothing read) */
	}
	return HYB_OK;
}
