/* SPDX-License-Identifier: BSD-3-Clause */
/* The one builder of HYBLAS_TRACE lines (every family's dispatch calls it). */
#include "hyb_trace_line.h"

#include <stdio.h>

#include "hyb_stats.h"

void hyb_trace_line( const hyb_trace_fields_t* f )
{
	char        line[2048];
	const char* name = hyb_op_name_of( f->op );
	int         n    = snprintf( line, sizeof line,
	                             "%s op=%s%s%s path=%s pred_cpu=%.3e pred_gpu=%.3e pred=%.3e seconds=%.3e%s",
                      name ? name : "?", f->kind ? f->kind : "", f->shape ? " " : "",
                      f->shape ? f->shape : "", f->path ? f->path : "?", f->pred_cpu, f->pred_gpu,
	                             f->pred, f->seconds, f->extra ? f->extra : "" );
	if ( n <= 0 || n >= (int)sizeof line - 1 ) return;
	if ( f->why )
	{
		int w = snprintf( line + n, sizeof line - (size_t)n, " why=\"%s\"", f->why );
		if ( w > 0 && n + w < (int)sizeof line - 1 ) n += w;
	}
	line[n++] = '\n';
	hyb_trace_write( line, n );
}
