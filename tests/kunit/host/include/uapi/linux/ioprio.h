/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host build of policy.h: the system's uapi ioprio.h (Debian 12 ships
 * Linux 6.1's), plus the level macro that 6.12's defines.
 */
#ifndef BQ_HOST_UAPI_IOPRIO_H
#define BQ_HOST_UAPI_IOPRIO_H

#include <linux/ioprio.h>

#ifndef IOPRIO_PRIO_LEVEL
#define IOPRIO_PRIO_LEVEL(ioprio)	((ioprio) & 0x7)
#endif

#endif
