/* SPDX-License-Identifier: BSD-3-Clause */
/* A compressed array of a stencil run filled from the caller's values, and
   the run's result written back into them, through the device's codec: the
   values cross PCIe once each way and the host does no coding. */
#ifndef HYB_STENCIL_ZFILL_H
#define HYB_STENCIL_ZFILL_H

#include <stddef.h>

#include "hyb_status.h"
#include "kernels/hyb_device.h"
#include "kernels/stencil/hyb_stencil_zfp.h"

/* Bytes of values one piece of a fill moves at most (whole bands; one band
   when a band is larger): a copy that size runs at the link's rate, and two
   pieces in flight are a small part of any device. */
#define HYB_STENCIL_ZFILL_PIECE_BYTES ( (size_t)64 << 20 )

/* Bytes each way across PCIe, as moved and as values. */
typedef struct
{
	double h2d, d2h, h2d_raw, d2h_raw;
} hyb_stencil_zfill_bytes_t;

/* values (the whole field, host memory, page-locked or not) -> a->data:
   pieces of whole bands go up as values, are encoded on the device and come
   down compressed; the pieces alternate between two streams so that one's
   upload overlaps the other's download. The stream is the host codec's bits
   (the device's codec writes libzfp's bits). `limit`: the compressed bytes
   of a piece at most (0: the defaults). Returns when everything is done:
   HYB_OK, or the first failure (device memory, copy, launch,
   synchronization), with a->data partly written and `values` untouched. */
hyb_status_t hyb_stencil_zfill_put( hyb_dev_t* dev, hyb_stencil_zarr_t* a, const void* values,
                                    int64_t limit, hyb_stencil_zfill_bytes_t* moved );

/* The reverse: a->data decoded on the device into `values`. A failure
   part way has written part of `values`, which cannot be undone; so the
   whole field is then decoded again by the host codec (the same values)
   and `values` ends complete all the same. Returns HYB_OK when it is (by
   either codec), or the host codec's refusal (HYB_E_INVALID). */
hyb_status_t hyb_stencil_zfill_get( hyb_dev_t* dev, const hyb_stencil_zarr_t* a, void* values,
                                    int64_t limit, hyb_stencil_zfill_bytes_t* moved );

#endif
