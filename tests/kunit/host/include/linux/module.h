/* SPDX-License-Identifier: GPL-2.0 */
/* Host build of the engine's KUnit suite: module metadata means nothing. */
#ifndef BQ_HOST_MODULE_H
#define BQ_HOST_MODULE_H

#define MODULE_DESCRIPTION(s)
#define MODULE_LICENSE(s)

#endif
