/* SPDX-License-Identifier: GPL-2.0 */
/*
 * as-compat.h - the one place where the elevator API of the supported
 * kernels (6.1 and 6.12 LTS) differs for this scheduler. Kernels after
 * 6.12 (6.17 moved elevator queue allocation and changed depth_updated)
 * would add their differences here.
 */
#ifndef AS_COMPAT_H
#define AS_COMPAT_H

#include <linux/version.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
#error "anticipatory needs Linux 6.1 or later"
#endif

/* insert_requests took "bool at_head" before 6.5, blk_insert_t after */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#define AS_DEFINE_INSERT_REQUESTS(name, common)				\
static void name(struct blk_mq_hw_ctx *hctx, struct list_head *list,	\
		 blk_insert_t flags)					\
{									\
	common(hctx, list, flags & BLK_MQ_INSERT_AT_HEAD);		\
}
#else
#define AS_DEFINE_INSERT_REQUESTS(name, common)				\
static void name(struct blk_mq_hw_ctx *hctx, struct list_head *list,	\
		 bool at_head)						\
{									\
	common(hctx, list, at_head);					\
}
#endif

#endif /* AS_COMPAT_H */
