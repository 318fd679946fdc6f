/* SPDX-License-Identifier: GPL-2.0 */
/* Host build of the engine: tools/'s kernel.h, WARN_ON_ONCE, U64_MAX, errno. */
#ifndef BQ_HOST_KERNEL_H
#define BQ_HOST_KERNEL_H

#include <errno.h>
#include <stdio.h>
#include_next <linux/kernel.h>
#include <asm/bug.h>

#ifndef U64_MAX
#define U64_MAX ((u64)~0ULL)
#endif

#endif
