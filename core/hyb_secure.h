/* SPDX-License-Identifier: BSD-3-Clause */
/* Whether the process runs with privileges its user does not have (setuid,
   setgid, file capabilities): then nothing from its environment or its files
   may steer hyblas. */
#ifndef HYB_SECURE_H
#define HYB_SECURE_H

/* 1 when the kernel started the program in secure-execution mode
   (getauxval(AT_SECURE), what glibc's secure_getenv and the dynamic loader
   obey), or when a test forced it; 0 otherwise. The one place that decides:
   the configuration then ignores every HYBLAS_* variable, NVBLAS_CONFIG_FILE
   and every file, and core/hyb_file refuses to read or write any file.
   Thread-safe, one load after the first call. */
int hyb_secure_mode( void );

/* Tests only: force the answer (0 or 1), or go back to the kernel's with a
   negative value. */
void hyb_secure_force_for_test( int secure );

#endif
