/* SPDX-License-Identifier: BSD-3-Clause */
/* The GPU check programs' soft assertion: a failed EXPECT is printed with its place and
   counted in `failures`, and the check goes on, so that one run reports every wrong
   result. For single-file programs: the counter is the program's own. */
#ifndef HYB_CHECK_EXPECT_H
#define HYB_CHECK_EXPECT_H

#include <stdio.h>

static int failures;

#define EXPECT( cond, ... )                                                                        \
	do {                                                                                           \
		if ( !( cond ) )                                                                           \
		{                                                                                          \
			failures++;                                                                            \
			printf( "FAIL %s:%d: ", __FILE__, __LINE__ );                                          \
			printf( __VA_ARGS__ );                                                                 \
			printf( "\n" );                                                                        \
		}                                                                                          \
	} while ( 0 )

#endif
