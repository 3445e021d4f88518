/* SPDX-License-Identifier: BSD-3-Clause */
/* The single CUnit runner: every suite listed in unit/suites.def, one or all.
   Usage: hyb_unit [--list] [--suite NAME] [--xml PREFIX] */
#include <CUnit/Automated.h>
#include <CUnit/Basic.h>
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "hyb_state.h"

#define HYB_SUITE( name ) extern CU_SuiteInfo hyb_suite_##name;
#include "unit/suites.def"
#undef HYB_SUITE

static CU_SuiteInfo* const hyb_all_suites[] = {
#define HYB_SUITE( name ) &hyb_suite_##name,
#include "unit/suites.def"
#undef HYB_SUITE
	NULL
};

int main( int argc, char** argv )
{
	const char* only = NULL;
	const char* xml  = NULL;
	for ( int i = 1; i < argc; i++ )
	{
		if ( strcmp( argv[i], "--list" ) == 0 )
		{
			for ( int s = 0; hyb_all_suites[s]; s++ ) printf( "%s\n", hyb_all_suites[s]->pName );
			return 0;
		}
		else if ( strcmp( argv[i], "--suite" ) == 0 && i + 1 < argc )
			only = argv[++i];
		else if ( strcmp( argv[i], "--xml" ) == 0 && i + 1 < argc )
			xml = argv[++i];
		else
		{
			fprintf( stderr, "usage: %s [--list] [--suite NAME] [--xml PREFIX]\n", argv[0] );
			return 2;
		}
	}

	/* The suites' children (hyb_t_isolated) go through the same fork
	   protocol as a program's under libhyblas. */
	hyb_state_fork_install();
	if ( CU_initialize_registry() != CUE_SUCCESS ) return 2;

	CU_SuiteInfo selected[2] = { CU_SUITE_INFO_NULL, CU_SUITE_INFO_NULL };
	int          found       = 0;
	for ( int s = 0; hyb_all_suites[s]; s++ )
	{
		if ( only && strcmp( only, hyb_all_suites[s]->pName ) != 0 ) continue;
		selected[0] = *hyb_all_suites[s];
		if ( CU_register_suites( selected ) != CUE_SUCCESS )
		{
			fprintf( stderr, "cannot register suite %s: %s\n", hyb_all_suites[s]->pName,
			         CU_get_error_msg() );
			CU_cleanup_registry();
			return 2;
		}
		found++;
	}
	if ( found == 0 )
	{
		fprintf( stderr, "no suite named %s\n", only ? only : "(any)" );
		CU_cleanup_registry();
		return 2;
	}

	if ( xml )
	{
		CU_set_output_filename( xml );
		CU_automated_run_tests();
	}
	else
	{
		CU_basic_set_mode( CU_BRM_VERBOSE );
		CU_basic_run_tests();
	}
	unsigned failures = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	/* A suite whose init failed runs no test: count that as a failure. */
	unsigned inactive = CU_get_run_summary()->nSuitesFailed;
	CU_cleanup_registry();
	return ( failures != 0 || inactive != 0 ) ? 1 : 0;
}
