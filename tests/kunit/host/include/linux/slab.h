/* SPDX-License-Identifier: GPL-2.0 */
/* Host build of the engine's KUnit suite: allocation is calloc (main.c). */
#ifndef BQ_HOST_SLAB_H
#define BQ_HOST_SLAB_H

#define GFP_KERNEL 0U

#endif
