/* SPDX-License-Identifier: BSD-3-Clause */
/* The device-side ZFP stage on the device runtime: a slab resident in device
   memory encoded on a stream and only its compressed bytes downloaded (and
   the reverse), and the host store that keeps each slab's stream with its
   exact size. */
#ifndef HYB_ZFP_STAGE_H
#define HYB_ZFP_STAGE_H

#include <stddef.h>

#include "kernels/hyb_device.h"
#include "kernels/zfp/hyb_zfp_format.h"

/* ------------------------------------------------------------ slabs */

/* Rows [y0, y1) of a 2-D field, or planes [y0, y1) (z) of a 3-D field, as a
   field of its own with the parent's strides: code it at the parent's first
   value plus hyb_zfp_slab_offset(parent, y0) values. Heights that are
   multiples of 4 keep the slabs' streams laid end to end equal to the
   parent's stream. The caller keeps 0 <= y0 <= y1 <= the parent's extent. */
static inline hyb_zfp_field_t hyb_zfp_slab( const hyb_zfp_field_t* parent, int64_t y0, int64_t y1 )
{
	hyb_zfp_field_t s = *parent;
	if ( parent->dims == 3 )
		s.nz = y1 - y0;
	else
		s.ny = y1 - y0;
	return s;
}

/* Rows (2-D) or planes (3-D) of a field along the axis slabs cut. */
static inline int64_t hyb_zfp_slab_rows( const hyb_zfp_field_t* parent )
{
	return parent->dims == 3 ? parent->nz : parent->ny;
}

/* Values from the parent's first value to slab y0's first value. */
static inline int64_t hyb_zfp_slab_offset( const hyb_zfp_field_t* parent, int64_t y0 )
{
	return y0 * ( parent->dims == 3 ? parent->sz : parent->sy );
}

/* Bytes of a device stream buffer for a slab: its stream's bytes rounded up
   to 8, so that buffers laid end to end stay 8-byte aligned. */
static inline size_t hyb_zfp_stage_buffer_bytes( const hyb_zfp_field_t* f, double rate )
{
	return ( hyb_zfp_stream_bytes( f, rate ) + 7u ) & ~(size_t)7u;
}

/* ------------------------------------------------------------ the stage, queued */

/* Queue on `stream` of context d: a wait for `after` (NULL: none), the
   encode ("zfp.encode") of the slab f at device address `dfield` into the
   device buffer `dstream` (8-byte aligned, hyb_zfp_stage_buffer_bytes), the
   copy of the stream's hyb_zfp_stream_bytes bytes to `hstream` (host memory,
   page-locked for the copy to overlap), and a record of `done` (NULL: none).
   Returns at once (nothing waits); HYB_OK, HYB_E_INVALID for a bad slab or
   rate (nothing queued), or the status of the first queue operation that
   failed (nothing queued after it; what was queued may still run: synchronize
   before reusing the buffers). An empty slab queues only the wait and the
   record. */
hyb_status_t hyb_zfp_stage_down( hyb_dev_t* d, int stream, const hyb_zfp_field_t* f, double rate,
                                 const void* dfield, void* dstream, void* hstream,
                                 hyb_devent_t* after, hyb_devent_t* done );

/* The reverse: wait for `after`, copy the stream of hyb_zfp_stream_bytes
   bytes from `hstream` to `dstream`, decode ("zfp.decode") into the slab at
   `dfield` (only the slab's values are written), record `done`. Same
   statuses as hyb_zfp_stage_down. */
hyb_status_t hyb_zfp_stage_up( hyb_dev_t* d, int stream, const hyb_zfp_field_t* f, double rate,
                               const void* hstream, void* dstream, void* dfield,
                               hyb_devent_t* after, hyb_devent_t* done );

/* hyb_zfp_stage_up with its decode on another stream: the copy on `stream`
   (after `after`), `copied` recorded behind it, the decode on
   `decode_stream` after `copied`, `done` recorded there. The copy of the
   next piece into another buffer can then run beside this piece's decode;
   `dstream` is free again once `done` is reached. `copied` is required
   where the two streams differ. Same statuses as hyb_zfp_stage_up. */
hyb_status_t hyb_zfp_stage_up_split( hyb_dev_t* d, int stream, int decode_stream,
                                     const hyb_zfp_field_t* f, double rate, const void* hstream,
                                     void* dstream, void* dfield, hyb_devent_t* after,
                                     hyb_devent_t* copied, hyb_devent_t* done );

/* hyb_zfp_stage_down with its encode on another stream: the encode on
   `encode_stream` (after `after`), `encoded` recorded behind it, the copy
   to the host on `stream` after `encoded`, `done` recorded there; `dstream`
   is free again once `done` is reached. `encoded` is required where the
   two streams differ. Same statuses as hyb_zfp_stage_down. */
hyb_status_t hyb_zfp_stage_down_split( hyb_dev_t* d, int encode_stream, int stream,
                                       const hyb_zfp_field_t* f, double rate, const void* dfield,
                                       void* dstream, void* hstream, hyb_devent_t* after,
                                       hyb_devent_t* encoded, hyb_devent_t* done );

/* ------------------------------------------------------------ the host store */

/* The compressed slabs of one field at one rate, on the host: slab i's
   stream of exactly hyb_zfp_stream_bytes(&shape[i], rate) bytes at an
   8-byte aligned offset of one allocation, with whether it holds a stream. */
typedef struct
{
	double           rate;
	int              count;
	hyb_zfp_field_t* shape;  /* each slab's sizes (strides contiguous) */
	size_t*          offset; /* into data */
	size_t*          bytes;  /* exact stream bytes */
	unsigned char*   held;   /* 1: slab i holds a complete stream */
	unsigned char*   data;
	size_t           total;  /* bytes of data */
	hyb_dev_t*       pinned; /* the context data is page-locked with, or NULL */
} hyb_zfp_store_t;

/* A store for `count` slabs of the given sizes (type and dims of each; its
   strides do not matter) at `rate`, holding nothing. HYB_E_INVALID for a
   bad slab or rate, HYB_E_NO_MEMORY; *s is zeroed on failure. */
hyb_status_t hyb_zfp_store_init( hyb_zfp_store_t* s, const hyb_zfp_field_t* slabs, int count,
                                 double rate );

/* Page-lock the store's data with context d so that the stage's copies
   overlap (optional: copies of unlocked memory are correct, only slower).
   A failure leaves the store unlocked and usable. */
hyb_status_t hyb_zfp_store_pin( hyb_zfp_store_t* s, hyb_dev_t* d );

/* Unlock, free, zero. */
void hyb_zfp_store_free( hyb_zfp_store_t* s );

/* Slab i's stream buffer (NULL for i out of range). */
void* hyb_zfp_store_stream( const hyb_zfp_store_t* s, int i );

/* Mark slab i as holding a complete stream (held = 1: after the event
   recorded behind its hyb_zfp_stage_down completed) or not. */
void hyb_zfp_store_set_held( hyb_zfp_store_t* s, int i, int held );

/* Slab i from host values (a field of slab i's sizes with any strides) by
   the host codec; marks it held. */
hyb_status_t hyb_zfp_store_put_host( hyb_zfp_store_t* s, int i, const hyb_zfp_field_t* f,
                                     const void* values );

/* Slab i decoded by the host codec into host values (slab i's sizes, any
   strides). HYB_E_INVALID when slab i holds no stream (nothing written). */
hyb_status_t hyb_zfp_store_get_host( const hyb_zfp_store_t* s, int i, const hyb_zfp_field_t* f,
                                     void* values );

/* ------------------------------------------------------------ the stage, with fallback */

/* How a save or load moved the slab. */
typedef enum
{
	HYB_ZFP_MOVED_NONE  = 0, /* not moved: the call failed */
	HYB_ZFP_MOVED_STAGE = 1, /* the device codec and the compressed bytes */
	HYB_ZFP_MOVED_RAW   = 2  /* the values uncompressed and the host codec */
} hyb_zfp_moved_t;

/* Slab i of store s from the slab f at device address `dfield` (rows of x
   contiguous: f->sx == 1, positive row and plane pitches), through
   `dstream` (device, hyb_zfp_stage_buffer_bytes of the slab) on `stream`,
   and wait for it. When any step fails, the device is synchronized and the
   slab's values are copied down uncompressed and encoded by the host codec:
   the stream in the store is the same bits either way. HYB_OK with *moved
   STAGE or RAW; HYB_E_INVALID (nothing done) for a bad slab, sizes other
   than slab i's, or a bad pointer; otherwise the device's status, *moved
   NONE, and slab i holds nothing (the values are only on the device: the
   caller's CPU fallback starts from its own copy). Counted as the operation
   "zfp.save"; a trace line per call. */
hyb_status_t hyb_zfp_stage_save( hyb_dev_t* d, int stream, const hyb_zfp_field_t* f,
                                 const void* dfield, void* dstream, hyb_zfp_store_t* s, int i,
                                 hyb_zfp_moved_t* moved );

/* Slab i of store s (which must hold it) into the slab f at device address
   `dfield` (as for save), through `dstream`, and wait for it. When any step
   fails, the device is synchronized, the host codec decodes the slab and its
   values are copied up uncompressed. HYB_OK with *moved STAGE or RAW;
   HYB_E_INVALID (nothing done) for bad input or a slab not held; otherwise
   the device's status and *moved NONE: the slab on the device is not to be
   used, the store is unchanged (hyb_zfp_store_get_host gives the values on
   the CPU). Counted as "zfp.load". */
hyb_status_t hyb_zfp_stage_load( hyb_dev_t* d, int stream, const hyb_zfp_field_t* f,
                                 const hyb_zfp_store_t* s, int i, void* dstream, void* dfield,
                                 hyb_zfp_moved_t* moved );

#endif
