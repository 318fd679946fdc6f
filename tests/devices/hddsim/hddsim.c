// SPDX-License-Identifier: GPL-2.0
/*
 * hddsim - a simulated rotational hard disk for testing I/O schedulers.
 *
 * A blk-mq driver whose request service times follow a disk model
 * (seek curve, platter rotation, zoned media rate, read-ahead cache,
 * write-back cache, optional NCQ with shortest-positioning-time-first)
 * driven by a simulated clock, so that the timing seen by the host does
 * not depend on how fast the CPU runs.  Data lives in a sparse page store.
 * Documentation/devices.rst describes the model and its parameters.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/highmem.h>
#include <linux/math.h>
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>

#define HDDSIM_MAX_ZONES	64
#define HDDSIM_MAX_NCQ		32
#define HDDSIM_PAGE_SECTORS	(PAGE_SIZE >> SECTOR_SHIFT)
/* NCQ aging: a queued request older than this is served next. */
#define HDDSIM_NCQ_MAX_WAIT_NS	(500 * NSEC_PER_MSEC)
/* Write cache: at most this many discontiguous dirty extents. */
#define HDDSIM_WC_MAX_RUNS	128

static unsigned int nr_devices = 1;
module_param(nr_devices, uint, 0444);
MODULE_PARM_DESC(nr_devices, "Number of devices (hddsim0, hddsim1, ...), default 1");

static unsigned long capacity_mb = 8192;
module_param(capacity_mb, ulong, 0444);
MODULE_PARM_DESC(capacity_mb, "Capacity in MiB (sparse backing), default 8192");

static unsigned int rpm = 7200;
module_param(rpm, uint, 0444);
MODULE_PARM_DESC(rpm, "Spindle speed in revolutions per minute, default 7200");

static unsigned int seek_min_us = 1000;
module_param(seek_min_us, uint, 0444);
MODULE_PARM_DESC(seek_min_us, "Track-to-track seek time in us, default 1000");

static unsigned int seek_avg_us = 8500;
module_param(seek_avg_us, uint, 0444);
MODULE_PARM_DESC(seek_avg_us, "Average seek time over random pairs in us, default 8500");

static unsigned int seek_max_us = 16000;
module_param(seek_max_us, uint, 0444);
MODULE_PARM_DESC(seek_max_us, "Full-stroke seek time in us, default 16000");

static unsigned int rate_outer_mbps = 160;
module_param(rate_outer_mbps, uint, 0444);
MODULE_PARM_DESC(rate_outer_mbps, "Media rate at LBA 0 in MB/s (10^6 B/s), default 160");

static unsigned int rate_inner_mbps = 80;
module_param(rate_inner_mbps, uint, 0444);
MODULE_PARM_DESC(rate_inner_mbps, "Media rate in the last zone in MB/s, default 80");

static unsigned int nr_zones = 16;
module_param(nr_zones, uint, 0444);
MODULE_PARM_DESC(nr_zones, "Number of equal-capacity recording zones (1-64), default 16");

static unsigned int cache_kb = 2048;
module_param(cache_kb, uint, 0444);
MODULE_PARM_DESC(cache_kb, "Read-ahead cache size in KiB (0 disables), default 2048");

static unsigned int iface_mbps = 600;
module_param(iface_mbps, uint, 0444);
MODULE_PARM_DESC(iface_mbps, "Interface (cache to host) rate in MB/s, default 600");

static unsigned int ncq_depth = 1;
module_param(ncq_depth, uint, 0444);
MODULE_PARM_DESC(ncq_depth, "Commands the disk accepts (1 = no NCQ, max 32), default 1");

static bool write_cache = true;
module_param(write_cache, bool, 0444);
MODULE_PARM_DESC(write_cache, "Enable the volatile write-back cache, default on");

static unsigned int wcache_kb = 8192;
module_param(wcache_kb, uint, 0444);
MODULE_PARM_DESC(wcache_kb, "Write-back cache size in KiB, default 8192");

struct hddsim_zone {
	sector_t start;		/* first LBA of the zone */
	u32 spt;		/* sectors per track (per revolution) */
	u64 first_track;	/* track number of the zone's first track */
	u64 ps_per_sector;	/* media transfer time of one sector, ps */
};

struct hddsim_stats {
	u64 reads;
	u64 writes;
	u64 flushes;
	u64 fua_writes;
	u64 read_sectors;
	u64 write_sectors;
	u64 seeks;		/* media accesses that moved the head */
	u64 media_accesses;	/* accesses that needed positioning */
	u64 cache_hits;		/* reads served from the read-ahead cache */
	u64 wcache_absorbed;	/* writes absorbed by the write-back cache */
	u64 busy_ns;		/* sum of service times */
	u64 alloc_failures;
	u64 errors;
	u64 ncq_reordered;	/* NCQ picks that were not the oldest */
	u64 max_outstanding;	/* most requests held by the disk at once */
};

/* Per-request driver data (blk-mq PDU). */
struct hddsim_cmd {
	struct list_head node;	/* on hddsim_dev.queued; dev->lock */
	u64 arrival_ns;		/* ktime when the disk accepted it */
	u64 finish_ns;		/* simulated completion time */
	blk_status_t status;
};

static struct hddsim_cmd *hddsim_cmd_of(struct request *rq)
{
	return blk_mq_rq_to_pdu(rq);
}

/* Outcome of planning one request at a given start time (no side effects). */
struct hddsim_plan {
	u64 start;
	u64 xfer_start;		/* positioning done (or data ready) */
	u64 finish;
	bool hit;		/* read-ahead cache hit */
	bool absorbed;		/* write absorbed by the write-back cache */
	bool media;		/* needs a media access (seek + rotation) */
	bool seek;		/* the head changed track */
	u64 ready;		/* hits: time the last sector is in the cache */
};

struct hddsim_dev {
	unsigned int index;
	char name[DISK_NAME_LEN];
	struct gendisk *disk;
	struct blk_mq_tag_set tag_set;
	struct dentry *debugfs;

	/* Geometry: constant after setup, no locking. */
	sector_t capacity;
	u64 rev_ns;		/* one revolution */
	u64 zone_sectors;
	unsigned int nr_zones;
	struct hddsim_zone zones[HDDSIM_MAX_ZONES];
	u64 nr_tracks;
	u64 seek_min_ns, seek_c1_ns, seek_c2_ns;
	u64 iface_ps_per_sector;
	u64 cache_sectors;
	u64 wcache_sectors;
	bool write_cache;

	/* Sparse backing store; pages are only freed at teardown. */
	struct xarray pages;

	spinlock_t lock;	/* protects everything below */
	struct hrtimer timer;	/* fires at cur's finish; dev->lock */
	struct list_head queued; /* accepted, not yet in service; dev->lock */
	unsigned int nr_queued;	/* dev->lock */
	struct request *cur;	/* in service; dev->lock */
	u64 busy_until;		/* simulated time the disk becomes free; dev->lock */
	sector_t head_lba;	/* head position when no stream runs; dev->lock */
	/* Read-ahead stream, all dev->lock. */
	bool ra_valid;
	sector_t ra_first;	/* first LBA of the stream (cache low bound) */
	sector_t ra_cons;	/* host consumed up to here */
	sector_t ra_pos;	/* stream was at ra_pos ... */
	u64 ra_t0;		/* ... at simulated time ra_t0 */
	u64 ra_ps;		/* media ps per sector of the stream */
	/* Write-back cache, all dev->lock. */
	u64 dirty_sectors;
	unsigned int dirty_runs;
	sector_t dirty_next;
	struct hddsim_stats stats; /* dev->lock */
};

static struct hddsim_dev **hddsim_devs;
static struct dentry *hddsim_debugfs_root;

/* ------------------------------------------------------------------ */
/* Geometry helpers (constant data, no locking). */

static unsigned int hddsim_zone_of(const struct hddsim_dev *dev, sector_t lba)
{
	u64 z = div64_u64(lba, dev->zone_sectors);

	return min_t(u64, z, dev->nr_zones - 1);
}

/* Track number of @lba and its angular position in ns after the index. */
static u64 hddsim_track(const struct hddsim_dev *dev, sector_t lba, u64 *angle_ns)
{
	const struct hddsim_zone *z = &dev->zones[hddsim_zone_of(dev, lba)];
	u64 off = lba - z->start;
	u32 in_track;
	u64 track = div_u64_rem(off, z->spt, &in_track);

	if (angle_ns)
		*angle_ns = div_u64((u64)in_track * dev->rev_ns, z->spt);
	return z->first_track + track;
}

static u64 hddsim_xfer_ns(u64 sectors, u64 ps_per_sector)
{
	return div_u64(sectors * ps_per_sector, 1000);
}

/*
 * Seek time for a distance of @d tracks out of D = nr_tracks:
 * t(d) = t_min + c1 * sqrt(d / D) + c2 * d / D, t(0) = 0.
 */
static u64 hddsim_seek_ns(const struct hddsim_dev *dev, u64 d)
{
	u64 frac, sq;

	if (!d)
		return 0;
	frac = div64_u64(d << 32, dev->nr_tracks);
	sq = int_sqrt64(frac);	/* sqrt(d / D) in 16.16 fixed point */
	return dev->seek_min_ns + ((dev->seek_c1_ns * sq) >> 16) +
	       div64_u64(dev->seek_c2_ns * d, dev->nr_tracks);
}

/* ------------------------------------------------------------------ */
/* The disk model.  All of it runs under dev->lock. */

/* Time the read-ahead stream reaches @cap (where it stops, cache full). */
static u64 hddsim_ra_cap_time(struct hddsim_dev *dev, sector_t cap)
{
	lockdep_assert_held(&dev->lock);
	if (cap <= dev->ra_pos)
		return dev->ra_t0;
	return dev->ra_t0 + hddsim_xfer_ns(cap - dev->ra_pos, dev->ra_ps);
}

/* Head position (LBA) at simulated time @t. */
static sector_t hddsim_head_at(struct hddsim_dev *dev, u64 t)
{
	sector_t cap, pos;

	lockdep_assert_held(&dev->lock);
	if (!dev->ra_valid)
		return dev->head_lba;
	cap = min_t(u64, dev->ra_cons + dev->cache_sectors, dev->capacity);
	if (t <= dev->ra_t0)
		return dev->ra_pos;
	pos = dev->ra_pos + div64_u64((t - dev->ra_t0) * 1000, dev->ra_ps);
	pos = min(pos, max(cap, dev->ra_pos));
	return min_t(u64, pos, dev->capacity - 1);
}

/* Positioning (seek + rotational latency) from the head at @t to @lba. */
static u64 hddsim_position_ns(struct hddsim_dev *dev, u64 t, sector_t lba, bool *seeked)
{
	u64 ht, tt, angle, phase, seek, arrive;

	lockdep_assert_held(&dev->lock);
	ht = hddsim_track(dev, hddsim_head_at(dev, t), NULL);
	tt = hddsim_track(dev, lba, &angle);
	seek = hddsim_seek_ns(dev, ht > tt ? ht - tt : tt - ht);
	*seeked = seek != 0;
	arrive = t + seek;
	div64_u64_rem(arrive, dev->rev_ns, &phase);
	return seek + (angle >= phase ? angle - phase : dev->rev_ns - phase + angle);
}

/* Cost of writing back the dirty contents of the write cache. */
static u64 hddsim_destage_ns(struct hddsim_dev *dev)
{
	const struct hddsim_zone *mid = &dev->zones[dev->nr_zones / 2];
	u64 pos = dev->seek_min_ns + dev->seek_c1_ns * 8 / 15 + dev->seek_c2_ns / 3;

	lockdep_assert_held(&dev->lock);
	pos += dev->rev_ns / 2;
	return dev->dirty_runs * pos + hddsim_xfer_ns(dev->dirty_sectors, mid->ps_per_sector);
}

static void hddsim_plan(struct hddsim_dev *dev, struct request *rq, u64 start,
			struct hddsim_plan *p)
{
	sector_t s = blk_rq_pos(rq);
	u64 n = blk_rq_sectors(rq);
	sector_t e = s + n;
	u64 iface = hddsim_xfer_ns(n, dev->iface_ps_per_sector);

	lockdep_assert_held(&dev->lock);
	memset(p, 0, sizeof(*p));
	p->start = start;

	switch (req_op(rq)) {
	case REQ_OP_FLUSH:
		p->xfer_start = start;
		p->finish = start + hddsim_destage_ns(dev);
		return;
	case REQ_OP_READ:
		if (dev->ra_valid) {
			sector_t head = hddsim_head_at(dev, start);
			sector_t cap = dev->ra_cons + dev->cache_sectors;
			sector_t lo = max_t(u64, dev->ra_first,
					    head > dev->cache_sectors ?
					    head - dev->cache_sectors : 0);

			if (s >= lo && s <= cap) {
				u64 ready;

				if (e <= dev->ra_pos)
					ready = start;
				else if (e <= cap)
					ready = hddsim_ra_cap_time(dev, e);
				else
					ready = max(hddsim_ra_cap_time(dev, cap), start) +
						hddsim_xfer_ns(e - cap, dev->ra_ps);
				p->hit = true;
				p->ready = max(ready, start);
				p->xfer_start = p->ready;
				p->finish = max(start + iface, p->ready);
				return;
			}
		}
		break;
	case REQ_OP_WRITE:
		if (dev->write_cache && !(rq->cmd_flags & REQ_FUA) &&
		    dev->dirty_sectors + n <= dev->wcache_sectors &&
		    dev->dirty_runs < HDDSIM_WC_MAX_RUNS) {
			p->absorbed = true;
			p->xfer_start = start;
			p->finish = start + iface;
			return;
		}
		break;
	default:
		break;
	}

	p->media = true;
	p->xfer_start = start + hddsim_position_ns(dev, start, s, &p->seek);
	p->finish = p->xfer_start +
		    hddsim_xfer_ns(n, dev->zones[hddsim_zone_of(dev, s)].ps_per_sector);
}

static void hddsim_commit(struct hddsim_dev *dev, struct request *rq,
			  const struct hddsim_plan *p)
{
	struct hddsim_stats *st = &dev->stats;
	sector_t s = blk_rq_pos(rq);
	u64 n = blk_rq_sectors(rq);
	sector_t e = s + n;

	lockdep_assert_held(&dev->lock);
	st->busy_ns += p->finish - p->start;
	dev->busy_until = p->finish;

	switch (req_op(rq)) {
	case REQ_OP_FLUSH:
		st->flushes++;
		if (dev->dirty_sectors) {
			/* Destaging moved the head away. */
			dev->head_lba = hddsim_head_at(dev, p->start);
			dev->ra_valid = false;
		}
		dev->dirty_sectors = 0;
		dev->dirty_runs = 0;
		return;
	case REQ_OP_READ:
		st->reads++;
		st->read_sectors += n;
		break;
	default:
		st->writes++;
		st->write_sectors += n;
		if (rq->cmd_flags & REQ_FUA)
			st->fua_writes++;
		break;
	}

	if (p->hit) {
		sector_t cap = dev->ra_cons + dev->cache_sectors;

		st->cache_hits++;
		if (e > cap) {
			dev->ra_pos = e;
			dev->ra_t0 = p->ready;
		} else if (hddsim_ra_cap_time(dev, cap) <= p->ready) {
			/* The stream had stopped with a full cache: resume. */
			dev->ra_pos = cap;
			dev->ra_t0 = p->ready;
		}
		dev->ra_cons = max(dev->ra_cons, e);
		return;
	}
	if (p->absorbed) {
		st->wcache_absorbed++;
		if (s != dev->dirty_next || !dev->dirty_sectors)
			dev->dirty_runs++;
		dev->dirty_sectors += n;
		dev->dirty_next = e;
		return;
	}

	st->media_accesses++;
	if (p->seek)
		st->seeks++;
	if (req_op(rq) == REQ_OP_READ && dev->cache_sectors && e < dev->capacity) {
		dev->ra_valid = true;
		dev->ra_first = s;
		dev->ra_cons = e;
		dev->ra_pos = e;
		dev->ra_t0 = p->finish;
		dev->ra_ps = dev->zones[hddsim_zone_of(dev, e)].ps_per_sector;
	} else {
		dev->ra_valid = false;
		dev->head_lba = min_t(u64, e, dev->capacity - 1);
	}
}

/*
 * While the disk was idle since busy_until, it wrote back dirty data: drop
 * the share of the dirty contents that fitted in the idle time.
 */
static void hddsim_idle_destage(struct hddsim_dev *dev, u64 start)
{
	u64 cost, gap;

	lockdep_assert_held(&dev->lock);
	if (!dev->dirty_sectors || start <= dev->busy_until)
		return;
	gap = start - dev->busy_until;
	cost = hddsim_destage_ns(dev);
	if (gap >= cost) {
		dev->dirty_sectors = 0;
		dev->dirty_runs = 0;
		return;
	}
	dev->dirty_sectors -= mul_u64_u64_div_u64(dev->dirty_sectors, gap, cost);
	dev->dirty_runs -= (unsigned int)mul_u64_u64_div_u64(dev->dirty_runs, gap, cost);
}

/*
 * The disk is free at simulated time busy_until: choose the next queued
 * request (oldest when NCQ is off or a request waited too long, otherwise
 * shortest positioning time first), compute its service and put it in
 * service.  Returns false if nothing is queued.
 */
static bool hddsim_start_next(struct hddsim_dev *dev)
{
	struct hddsim_cmd *cmd, *best = NULL, *oldest;
	struct hddsim_plan plan, best_plan;
	struct request *rq;
	u64 start;

	lockdep_assert_held(&dev->lock);
	if (list_empty(&dev->queued))
		return false;
	oldest = list_first_entry(&dev->queued, struct hddsim_cmd, node);
	if (dev->nr_queued == 1 ||
	    oldest->arrival_ns + HDDSIM_NCQ_MAX_WAIT_NS <= dev->busy_until) {
		best = oldest;
		rq = blk_mq_rq_from_pdu(best);
		start = max(dev->busy_until, best->arrival_ns);
		hddsim_idle_destage(dev, start);
		hddsim_plan(dev, rq, start, &best_plan);
	} else {
		list_for_each_entry(cmd, &dev->queued, node) {
			rq = blk_mq_rq_from_pdu(cmd);
			start = max(dev->busy_until, cmd->arrival_ns);
			hddsim_plan(dev, rq, start, &plan);
			if (!best || plan.xfer_start < best_plan.xfer_start) {
				best = cmd;
				best_plan = plan;
			}
		}
		if (best != oldest)
			dev->stats.ncq_reordered++;
		hddsim_idle_destage(dev, best_plan.start);
		hddsim_plan(dev, blk_mq_rq_from_pdu(best), best_plan.start, &best_plan);
	}

	list_del_init(&best->node);
	dev->nr_queued--;
	rq = blk_mq_rq_from_pdu(best);
	hddsim_commit(dev, rq, &best_plan);
	best->finish_ns = best_plan.finish;
	dev->cur = rq;
	return true;
}

static enum hrtimer_restart hddsim_timer_fn(struct hrtimer *timer)
{
	struct hddsim_dev *dev = container_of(timer, struct hddsim_dev, timer);
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	struct request *done[HDDSIM_MAX_NCQ];
	unsigned int nr_done = 0, i;
	u64 now;

	/* Soft hrtimer: runs in softirq context. */
	spin_lock(&dev->lock);
	now = ktime_get_ns();
	while (dev->cur &&
	       hddsim_cmd_of(dev->cur)->finish_ns <= now &&
	       nr_done < ARRAY_SIZE(done)) {
		done[nr_done++] = dev->cur;
		dev->cur = NULL;
		hddsim_start_next(dev);
	}
	if (dev->cur) {
		hrtimer_set_expires(timer,
				    ns_to_ktime(hddsim_cmd_of(dev->cur)->finish_ns));
		ret = HRTIMER_RESTART;
	}
	spin_unlock(&dev->lock);

	for (i = 0; i < nr_done; i++)
		blk_mq_end_request(done[i], hddsim_cmd_of(done[i])->status);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Sparse backing store. */

static struct page *hddsim_get_page(struct hddsim_dev *dev, pgoff_t idx, bool alloc)
{
	struct page *page, *old;

	page = xa_load(&dev->pages, idx);
	if (page || !alloc)
		return page;
	page = alloc_page(GFP_NOIO | __GFP_ZERO);
	if (!page)
		return NULL;
	old = xa_cmpxchg(&dev->pages, idx, NULL, page, GFP_NOIO);
	if (xa_is_err(old)) {
		__free_page(page);
		return NULL;
	}
	if (old) {
		/* Lost a race with another writer of this page. */
		__free_page(page);
		return old;
	}
	return page;
}

/*
 * Copy the data of @rq to or from the store.  Runs in process context
 * (BLK_MQ_F_BLOCKING) and may sleep to allocate pages.  Concurrent requests
 * touching the same sectors race like they would on a real disk.
 */
static blk_status_t hddsim_copy(struct hddsim_dev *dev, struct request *rq)
{
	bool write = op_is_write(req_op(rq));
	struct req_iterator iter;
	struct bio_vec bvec;
	sector_t sector = blk_rq_pos(rq);

	rq_for_each_segment(bvec, rq, iter) {
		unsigned int done = 0;

		while (done < bvec.bv_len) {
			pgoff_t idx = sector / HDDSIM_PAGE_SECTORS;
			unsigned int off = (sector % HDDSIM_PAGE_SECTORS) << SECTOR_SHIFT;
			unsigned int len = min_t(unsigned int, bvec.bv_len - done,
						 PAGE_SIZE - off);
			struct page *page = hddsim_get_page(dev, idx, write);
			void *buf = bvec_kmap_local(&bvec);

			if (write && !page) {
				kunmap_local(buf);
				return BLK_STS_RESOURCE;
			}
			if (!page) {
				memset(buf + done, 0, len);
			} else {
				void *mem = kmap_local_page(page);

				if (write)
					memcpy(mem + off, buf + done, len);
				else
					memcpy(buf + done, mem + off, len);
				kunmap_local(mem);
			}
			if (!write)
				flush_dcache_page(bvec.bv_page);
			kunmap_local(buf);
			done += len;
			sector += len >> SECTOR_SHIFT;
		}
	}
	return BLK_STS_OK;
}

static void hddsim_free_pages(struct hddsim_dev *dev)
{
	unsigned long idx;
	struct page *page;

	xa_for_each(&dev->pages, idx, page)
		__free_page(page);
	xa_destroy(&dev->pages);
}

/* ------------------------------------------------------------------ */
/* blk-mq operations. */

static blk_status_t hddsim_queue_rq(struct blk_mq_hw_ctx *hctx,
				    const struct blk_mq_queue_data *bd)
{
	struct request *rq = bd->rq;
	struct hddsim_cmd *cmd = blk_mq_rq_to_pdu(rq);
	struct hddsim_dev *dev = hctx->queue->queuedata;
	blk_status_t sts;
	u64 now;

	switch (req_op(rq)) {
	case REQ_OP_READ:
	case REQ_OP_WRITE:
	case REQ_OP_FLUSH:
		break;
	default:
		return BLK_STS_NOTSUPP;
	}
	/* A flush carries no sector (it may be (sector_t)-1). */
	if (req_op(rq) != REQ_OP_FLUSH &&
	    blk_rq_pos(rq) + blk_rq_sectors(rq) > dev->capacity)
		return BLK_STS_IOERR;

	blk_mq_start_request(rq);
	if (req_op(rq) != REQ_OP_FLUSH) {
		sts = hddsim_copy(dev, rq);
		if (sts != BLK_STS_OK) {
			spin_lock_bh(&dev->lock);
			dev->stats.alloc_failures++;
			spin_unlock_bh(&dev->lock);
			blk_mq_end_request(rq, sts);
			return BLK_STS_OK;
		}
	}

	cmd->status = BLK_STS_OK;
	spin_lock_bh(&dev->lock);
	now = ktime_get_ns();
	cmd->arrival_ns = now;
	list_add_tail(&cmd->node, &dev->queued);
	dev->nr_queued++;
	dev->stats.max_outstanding = max_t(u64, dev->stats.max_outstanding,
					   dev->nr_queued + !!dev->cur);
	if (!dev->cur) {
		if (hddsim_start_next(dev))
			hrtimer_start(&dev->timer,
				      ns_to_ktime(hddsim_cmd_of(dev->cur)->finish_ns),
				      HRTIMER_MODE_ABS_SOFT);
	}
	spin_unlock_bh(&dev->lock);
	return BLK_STS_OK;
}

/* Requests always complete from the timer; just keep waiting. */
static enum blk_eh_timer_return hddsim_timeout(struct request *rq)
{
	return BLK_EH_RESET_TIMER;
}

static int hddsim_init_request(struct blk_mq_tag_set *set, struct request *rq,
			       unsigned int hctx_idx, unsigned int numa_node)
{
	struct hddsim_cmd *cmd = blk_mq_rq_to_pdu(rq);

	INIT_LIST_HEAD(&cmd->node);
	return 0;
}

static const struct blk_mq_ops hddsim_mq_ops = {
	.queue_rq	= hddsim_queue_rq,
	.timeout	= hddsim_timeout,
	.init_request	= hddsim_init_request,
};

static const struct block_device_operations hddsim_fops = {
	.owner		= THIS_MODULE,
};

/* ------------------------------------------------------------------ */
/* debugfs */

static int hddsim_stats_show(struct seq_file *m, void *unused)
{
	struct hddsim_dev *dev = m->private;
	struct hddsim_stats st;
	u64 dirty, busy_until;

	spin_lock_bh(&dev->lock);
	st = dev->stats;
	dirty = dev->dirty_sectors;
	busy_until = dev->busy_until;
	spin_unlock_bh(&dev->lock);

	seq_printf(m, "reads %llu\n", st.reads);
	seq_printf(m, "writes %llu\n", st.writes);
	seq_printf(m, "flushes %llu\n", st.flushes);
	seq_printf(m, "fua_writes %llu\n", st.fua_writes);
	seq_printf(m, "read_sectors %llu\n", st.read_sectors);
	seq_printf(m, "write_sectors %llu\n", st.write_sectors);
	seq_printf(m, "media_accesses %llu\n", st.media_accesses);
	seq_printf(m, "seeks %llu\n", st.seeks);
	seq_printf(m, "cache_hits %llu\n", st.cache_hits);
	seq_printf(m, "wcache_absorbed %llu\n", st.wcache_absorbed);
	seq_printf(m, "dirty_sectors %llu\n", dirty);
	seq_printf(m, "ncq_reordered %llu\n", st.ncq_reordered);
	seq_printf(m, "max_outstanding %llu\n", st.max_outstanding);
	seq_printf(m, "busy_ns %llu\n", st.busy_ns);
	seq_printf(m, "busy_until_ns %llu\n", busy_until);
	seq_printf(m, "alloc_failures %llu\n", st.alloc_failures);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(hddsim_stats);

static int hddsim_geometry_show(struct seq_file *m, void *unused)
{
	struct hddsim_dev *dev = m->private;
	unsigned int i;

	seq_printf(m, "capacity_sectors %llu\n", (u64)dev->capacity);
	seq_printf(m, "rev_ns %llu\n", dev->rev_ns);
	seq_printf(m, "tracks %llu\n", dev->nr_tracks);
	seq_printf(m, "seek_ns min %llu c1 %llu c2 %llu\n", dev->seek_min_ns,
		   dev->seek_c1_ns, dev->seek_c2_ns);
	seq_printf(m, "cache_sectors %llu\n", dev->cache_sectors);
	seq_printf(m, "wcache_sectors %llu write_cache %d\n", dev->wcache_sectors,
		   dev->write_cache);
	seq_printf(m, "ncq_depth %u\n", dev->tag_set.queue_depth);
	for (i = 0; i < dev->nr_zones; i++)
		seq_printf(m, "zone %u start %llu spt %u first_track %llu ps_per_sector %llu\n",
			   i, (u64)dev->zones[i].start, dev->zones[i].spt,
			   dev->zones[i].first_track, dev->zones[i].ps_per_sector);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(hddsim_geometry);

/* ------------------------------------------------------------------ */
/* Setup and teardown. */

static void hddsim_setup_geometry(struct hddsim_dev *dev)
{
	s64 a = (s64)(seek_avg_us - seek_min_us) * NSEC_PER_USEC;
	s64 f = (s64)(seek_max_us - seek_min_us) * NSEC_PER_USEC;
	s64 c1;
	u64 track = 0;
	unsigned int i;

	dev->capacity = (sector_t)capacity_mb << (20 - SECTOR_SHIFT);
	dev->rev_ns = div_u64(60ULL * NSEC_PER_SEC, rpm);
	dev->nr_zones = nr_zones;
	dev->zone_sectors = div_u64(dev->capacity, nr_zones);
	for (i = 0; i < nr_zones; i++) {
		struct hddsim_zone *z = &dev->zones[i];
		u64 rate = rate_outer_mbps;	/* MB/s, linear across zones */
		u64 zsec = i == nr_zones - 1 ?
			   dev->capacity - (u64)i * dev->zone_sectors : dev->zone_sectors;

		if (nr_zones > 1)
			rate -= div_u64((u64)(rate_outer_mbps - rate_inner_mbps) * i,
					nr_zones - 1);
		z->start = (u64)i * dev->zone_sectors;
		z->ps_per_sector = div_u64(512ULL * 1000000, rate);
		z->spt = max_t(u64, 1, div64_u64(dev->rev_ns * 1000, z->ps_per_sector));
		z->first_track = track;
		track += DIV_ROUND_UP_ULL(zsec, z->spt);
	}
	dev->nr_tracks = track;

	/*
	 * t(d) = t_min + c1 sqrt(x) + c2 x with x = d / D: t(D) = t_max gives
	 * c1 + c2 = F, and E[sqrt|x - y|] = 8/15, E|x - y| = 1/3 for uniform
	 * x, y give the average A: c1 = 5A - 5F/3.  Clamped to [0, F].
	 */
	c1 = 5 * a - div_s64(5 * f, 3);
	c1 = clamp_t(s64, c1, 0, f);
	dev->seek_min_ns = (u64)seek_min_us * NSEC_PER_USEC;
	dev->seek_c1_ns = c1;
	dev->seek_c2_ns = f - c1;

	dev->iface_ps_per_sector = div_u64(512ULL * 1000000, iface_mbps);
	dev->cache_sectors = (u64)cache_kb << (10 - SECTOR_SHIFT);
	dev->wcache_sectors = (u64)wcache_kb << (10 - SECTOR_SHIFT);
	dev->write_cache = write_cache && wcache_kb;
}

static int hddsim_add(unsigned int index)
{
	struct queue_limits lim = {
		.logical_block_size	= SECTOR_SIZE,
		.physical_block_size	= 4096,
		.max_hw_sectors		= 1024,
		.features		= BLK_FEAT_ROTATIONAL,
	};
	struct hddsim_dev *dev;
	struct gendisk *disk;
	int ret;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	dev->index = index;
	snprintf(dev->name, sizeof(dev->name), "hddsim%u", index);
	hddsim_setup_geometry(dev);
	xa_init(&dev->pages);
	spin_lock_init(&dev->lock);
	INIT_LIST_HEAD(&dev->queued);
	hrtimer_init(&dev->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	dev->timer.function = hddsim_timer_fn;

	if (dev->write_cache)
		lim.features |= BLK_FEAT_WRITE_CACHE | BLK_FEAT_FUA;

	dev->tag_set.ops = &hddsim_mq_ops;
	dev->tag_set.nr_hw_queues = 1;
	dev->tag_set.queue_depth = ncq_depth;
	dev->tag_set.numa_node = NUMA_NO_NODE;
	dev->tag_set.cmd_size = sizeof(struct hddsim_cmd);
	dev->tag_set.flags = BLK_MQ_F_SHOULD_MERGE | BLK_MQ_F_BLOCKING;
	dev->tag_set.driver_data = dev;
	ret = blk_mq_alloc_tag_set(&dev->tag_set);
	if (ret)
		goto out_free;

	disk = blk_mq_alloc_disk(&dev->tag_set, &lim, dev);
	if (IS_ERR(disk)) {
		ret = PTR_ERR(disk);
		goto out_tagset;
	}
	dev->disk = disk;
	disk->fops = &hddsim_fops;
	disk->private_data = dev;
	strscpy(disk->disk_name, dev->name, sizeof(disk->disk_name));
	set_capacity(disk, dev->capacity);

	ret = add_disk(disk);
	if (ret)
		goto out_disk;

	if (hddsim_debugfs_root) {
		dev->debugfs = debugfs_create_dir(dev->name, hddsim_debugfs_root);
		debugfs_create_file("stats", 0444, dev->debugfs, dev, &hddsim_stats_fops);
		debugfs_create_file("geometry", 0444, dev->debugfs, dev,
				    &hddsim_geometry_fops);
	}
	hddsim_devs[index] = dev;
	return 0;

out_disk:
	put_disk(disk);
out_tagset:
	blk_mq_free_tag_set(&dev->tag_set);
out_free:
	kfree(dev);
	return ret;
}

static void hddsim_del(struct hddsim_dev *dev)
{
	debugfs_remove_recursive(dev->debugfs);
	/* Drains the queue: the timer completes everything in flight. */
	del_gendisk(dev->disk);
	hrtimer_cancel(&dev->timer);
	WARN_ON(dev->cur || !list_empty(&dev->queued));
	put_disk(dev->disk);
	blk_mq_free_tag_set(&dev->tag_set);
	hddsim_free_pages(dev);
	kfree(dev);
}

static int hddsim_check_params(void)
{
	if (!nr_devices || nr_devices > 64 || capacity_mb < 16 ||
	    capacity_mb > (1UL << 30) || rpm < 1000 || rpm > 30000 ||
	    !rate_inner_mbps || rate_outer_mbps < rate_inner_mbps ||
	    rate_outer_mbps > 100000 || !nr_zones || nr_zones > HDDSIM_MAX_ZONES ||
	    !iface_mbps || !ncq_depth || ncq_depth > HDDSIM_MAX_NCQ ||
	    seek_min_us > seek_avg_us || seek_avg_us > seek_max_us ||
	    seek_max_us > 1000000 || cache_kb > (1U << 20) || wcache_kb > (1U << 20))
		return -EINVAL;
	return 0;
}

static void hddsim_cleanup(void)
{
	unsigned int i;

	for (i = 0; i < nr_devices; i++)
		if (hddsim_devs[i])
			hddsim_del(hddsim_devs[i]);
	kfree(hddsim_devs);
	debugfs_remove_recursive(hddsim_debugfs_root);
}

static int __init hddsim_init(void)
{
	unsigned int i;
	int ret;

	ret = hddsim_check_params();
	if (ret) {
		pr_err("invalid module parameters\n");
		return ret;
	}
	hddsim_devs = kcalloc(nr_devices, sizeof(*hddsim_devs), GFP_KERNEL);
	if (!hddsim_devs)
		return -ENOMEM;
	hddsim_debugfs_root = debugfs_create_dir("hddsim", NULL);
	if (IS_ERR(hddsim_debugfs_root))
		hddsim_debugfs_root = NULL;

	for (i = 0; i < nr_devices; i++) {
		ret = hddsim_add(i);
		if (ret) {
			pr_err("cannot create hddsim%u: %d\n", i, ret);
			hddsim_cleanup();
			return ret;
		}
	}
	pr_info("%u device(s), %lu MiB, %u rpm, %u-%u MB/s, ncq_depth %u, write cache %s\n",
		nr_devices, capacity_mb, rpm, rate_outer_mbps, rate_inner_mbps,
		ncq_depth, write_cache ? "on" : "off");
	return 0;
}

static void __exit hddsim_exit(void)
{
	hddsim_cleanup();
}

module_init(hddsim_init);
module_exit(hddsim_exit);

MODULE_DESCRIPTION("Simulated rotational hard disk (blk-mq) for I/O scheduler tests");
MODULE_LICENSE("GPL");
