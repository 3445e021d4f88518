/* SPDX-License-Identifier: BSD-3-Clause */
/* Every status code has a distinct name and a real message. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "hyb_status.h"

static void test_every_code_has_message( void )
{
	static const hyb_status_t codes[] = {
#define HYB_STATUS_CODE( name, value, msg ) name,
		HYB_STATUS_LIST( HYB_STATUS_CODE )
#undef HYB_STATUS_CODE
	};
	CU_ASSERT_EQUAL( sizeof codes / sizeof codes[0], HYB_STATUS_COUNT );
	for ( size_t i = 0; i < sizeof codes / sizeof codes[0]; i++ )
	{
		const char* msg = hyb_status_string( codes[i] );
		CU_ASSERT_PTR_NOT_NULL_FATAL( msg );
		CU_ASSERT( strlen( msg ) > 3 );
		CU_ASSERT( strcmp( msg, "unknown status" ) != 0 );
		CU_ASSERT( strncmp( hyb_status_name( codes[i] ), "HYB_", 4 ) == 0 );
		for ( size_t j = 0; j < i; j++ ) CU_ASSERT( codes[i] != codes[j] );
	}
}

static void test_unknown_code( void )
{
	CU_ASSERT_STRING_EQUAL( hyb_status_string( (hyb_status_t)-999 ), "unknown status" );
	CU_ASSERT_STRING_EQUAL( hyb_status_name( (hyb_status_t)-999 ), "HYB_E_UNKNOWN" );
}

static CU_TestInfo hyb_tests_status[] = {
	{ "every_code_has_message", test_every_code_has_message },
	{ "unknown_code", test_unknown_code },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_status = { "status", NULL, NULL, NULL, NULL, hyb_tests_status };
