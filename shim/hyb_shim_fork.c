/* SPDX-License-Identifier: BSD-3-Clause */
/* fork() handling: the child never touches the parent's device state. */
#include "shim/hyb_shim.h"

#include <pthread.h>

#include "kernels/hyb_device.h"

static void hyb_fork_prepare( void )
{
	hyb_device_registry_fork_prepare();
}

static void hyb_fork_parent( void )
{
	hyb_device_registry_fork_parent();
}

/* Only async-signal-safe work here: no stdio, no malloc. */
static void hyb_fork_child( void )
{
	hyb_device_registry_fork_child();
}

void hyb_shim_fork_register( void )
{
	pthread_atfork( hyb_fork_prepare, hyb_fork_parent, hyb_fork_child );
}
