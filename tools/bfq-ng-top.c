// SPDX-License-Identifier: GPL-2.0
/*
 * bfq-ng-top: show bfq-ng's per-device state and queues live, like top(1).
 *
 * For every block device whose selected scheduler is bfq-ng it reads the
 * debugfs files /sys/kernel/debug/block/<dev>/sched/{state,stats,queues}
 * and prints the device state, the counters with their rate since the last
 * refresh, and one row per queue (the process's name and its read+write
 * rate from /proc/<pid>/io beside it).
 *
 * The files are parsed loosely, so that the tool keeps working as they
 * grow: state and stats are "key value" lines, shown whatever the keys;
 * a queues line starting with "pid" is a row of "key value" pairs and bare
 * flags, and any other line is counted and skipped.  A device that vanishes
 * or stops using bfq-ng between two refreshes simply drops out.
 *
 * Needs root (debugfs).  Plain libc; `make tools` builds it.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define TOP_NAME_LEN 64
#define TOP_KEY_LEN 48
#define TOP_VAL_LEN 48
#define TOP_MAX_ELEVATORS 8
#define TOP_FILE_MAX_BYTES (16 << 20)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct kv {
	char key[TOP_KEY_LEN];
	char val[TOP_VAL_LEN];
};

struct kvset {
	struct kv *v;
	size_t n, cap;
};

struct qrow {
	long pid;
	char comm[32];
	char type[8];		/* the first bare word: sync or async */
	char where[12];		/* the second: serving, active, idle, off */
	struct kvset f;		/* key value pairs */
	double io_kib_s;	/* whole process, from /proc/<pid>/io; < 0: unknown */
};

struct dev {
	char name[TOP_NAME_LEN];
	char elevator[TOP_NAME_LEN];
	struct kvset state, stats;
	struct qrow *q;
	size_t nq, capq;
	unsigned int unknown_lines;
};

/* What the previous refresh saw, for rates. */
struct hist {
	char name[TOP_NAME_LEN];	/* device name, or "" for a process */
	long pid;
	struct kvset stats;
	unsigned long long io_bytes;
	double t, io_kib_s;
	int seen;			/* in the current refresh */
};

static struct {
	int batch;
	long iterations;		/* 0: forever */
	double delay_s;
	const char *root;
	const char *elevators[TOP_MAX_ELEVATORS];
	int nr_elevators;
	char **only;			/* device names given on the command line */
	int nr_only;
} opt = { .delay_s = 2.0, .root = "" };

static struct hist *hist;
static size_t nr_hist, cap_hist;
static volatile sig_atomic_t stop;
static struct termios saved_tty;
static int tty_raw;

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		perror("bfq-ng-top");
		exit(1);
	}
	return p;
}

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = *cap ? *cap * 2 : 16;
	if (*cap < need)
		*cap = need;
	return xrealloc(p, *cap * size);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int is_number(const char *s)
{
	char *end;

	if (!*s)
		return 0;
	errno = 0;
	strtod(s, &end);
	return !*end && !errno;
}

/* Copy at most size - 1 bytes and terminate. */
static void copy_str(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* ---------------------------------------------------------------- files */

static void path_of(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void path_of(char *buf, size_t size, const char *fmt, ...)
{
	size_t n = strlen(opt.root);
	va_list ap;

	copy_str(buf, size, opt.root);
	va_start(ap, fmt);
	vsnprintf(buf + n, size > n ? size - n : 0, fmt, ap);
	va_end(ap);
}

/*
 * Read a whole file (debugfs files report size 0, so read to EOF).
 * Returns a NUL-terminated buffer to free, or NULL if it cannot be read.
 */
static char *read_file(const char *path)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;
	FILE *f = fopen(path, "re");

	if (!f)
		return NULL;
	for (;;) {
		size_t got;

		buf = grow(buf, &cap, len + 4097, 1);
		got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
		if (got == 0 || len >= TOP_FILE_MAX_BYTES)
			break;
	}
	if (ferror(f)) {
		free(buf);
		buf = NULL;
	} else {
		buf[len] = '\0';
	}
	fclose(f);
	return buf;
}

/* ----------------------------------------------------------------- kvset */

static void kv_add(struct kvset *s, const char *key, const char *val)
{
	s->v = grow(s->v, &s->cap, s->n + 1, sizeof(*s->v));
	copy_str(s->v[s->n].key, sizeof(s->v[s->n].key), key);
	copy_str(s->v[s->n].val, sizeof(s->v[s->n].val), val);
	s->n++;
}

static const char *kv_get(const struct kvset *s, const char *key)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].key, key))
			return s->v[i].val;
	return NULL;
}

static void kv_free(struct kvset *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static void kv_copy(struct kvset *dst, const struct kvset *src)
{
	size_t i;

	dst->n = 0;
	for (i = 0; i < src->n; i++)
		kv_add(dst, src->v[i].key, src->v[i].val);
}

/*
 * "key value" lines: the first word is the key, the rest of the line the
 * value.  Returns the number of lines that are not of that shape.
 */
static unsigned int parse_kv_lines(char *text, struct kvset *s)
{
	unsigned int unknown = 0;
	char *save = NULL, *line;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char key[TOP_KEY_LEN];
		int off = 0;

		if (sscanf(line, " %47s %n", key, &off) != 1 || !line[off]) {
			unknown++;
			continue;
		}
		kv_add(s, key, line + off);
	}
	return unknown;
}

/* --------------------------------------------------------------- queues */

/* Keys of a queues line whose value is a word, not a number. */
static int word_valued(const char *key)
{
	static const char *const keys[] = { "class", "raising", "cgroup", "group" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strcmp(key, keys[i]))
			return 1;
	return 0;
}

/* Bare words: the queue's type, then where it is; later ones are unknown. */
static void add_flag(struct qrow *r, const char *word)
{
	if (!r->type[0])
		copy_str(r->type, sizeof(r->type), word);
	else if (!r->where[0])
		copy_str(r->where, sizeof(r->where), word);
}

/* One "pid N ..." line into a row; 0 if the line is not a queue line. */
static int parse_queue_line(char *line, struct qrow *r)
{
	char *save = NULL, *tok, *next;

	memset(r, 0, sizeof(*r));
	r->io_kib_s = -1;
	tok = strtok_r(line, " \t", &save);
	if (!tok || strcmp(tok, "pid"))
		return 0;
	next = strtok_r(NULL, " \t", &save);
	if (!next || !is_number(next))
		return 0;
	r->pid = strtol(next, NULL, 10);
	for (tok = strtok_r(NULL, " \t", &save); tok; tok = next) {
		next = strtok_r(NULL, " \t", &save);
		if (next && (is_number(next) || word_valued(tok))) {
			kv_add(&r->f, tok, next);
			next = strtok_r(NULL, " \t", &save);
		} else {
			add_flag(r, tok);
		}
	}
	return 1;
}

static void parse_queues(char *text, struct dev *d)
{
	char *save = NULL, *line;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		d->q = grow(d->q, &d->capq, d->nq + 1, sizeof(*d->q));
		if (parse_queue_line(line, &d->q[d->nq]))
			d->nq++;
		else
			d->unknown_lines++;
	}
}

static void dev_free(struct dev *d)
{
	size_t i;

	kv_free(&d->state);
	kv_free(&d->stats);
	for (i = 0; i < d->nq; i++)
		kv_free(&d->q[i].f);
	free(d->q);
}

/* -------------------------------------------------------------- history */

static struct hist *hist_find(const char *name, long pid)
{
	size_t i;

	for (i = 0; i < nr_hist; i++)
		if (!strcmp(hist[i].name, name) && hist[i].pid == pid)
			return &hist[i];
	return NULL;
}

static struct hist *hist_get(const char *name, long pid)
{
	struct hist *h = hist_find(name, pid);

	if (h)
		return h;
	hist = grow(hist, &cap_hist, nr_hist + 1, sizeof(*hist));
	h = &hist[nr_hist++];
	memset(h, 0, sizeof(*h));
	copy_str(h->name, sizeof(h->name), name);
	h->pid = pid;
	return h;
}

/* Forget devices and processes not seen in this refresh. */
static void hist_prune(void)
{
	size_t i, j = 0;

	for (i = 0; i < nr_hist; i++) {
		if (!hist[i].seen) {
			kv_free(&hist[i].stats);
			continue;
		}
		hist[i].seen = 0;
		hist[j++] = hist[i];
	}
	nr_hist = j;
}

/* ------------------------------------------------------------- sampling */

/* The selected elevator of a device if it is one we show, else NULL. */
static const char *device_elevator(const char *dev, char *buf, size_t size)
{
	char path[PATH_MAX], *text, *l, *r;
	int i;

	path_of(path, sizeof(path), "/sys/block/%s/queue/scheduler", dev);
	text = read_file(path);
	if (!text)
		return NULL;
	l = strchr(text, '[');
	r = l ? strchr(l, ']') : NULL;
	buf[0] = '\0';
	if (l && r) {
		*r = '\0';
		copy_str(buf, size, l + 1);
	}
	free(text);
	for (i = 0; i < opt.nr_elevators; i++)
		if (!strcmp(buf, opt.elevators[i]))
			return buf;
	return NULL;
}

static int wanted(const char *dev)
{
	int i;

	if (!opt.nr_only)
		return 1;
	for (i = 0; i < opt.nr_only; i++)
		if (!strcmp(dev, opt.only[i]))
			return 1;
	return 0;
}

static char *read_sched_file(const char *dev, const char *file)
{
	char path[PATH_MAX];

	path_of(path, sizeof(path), "/sys/kernel/debug/block/%s/sched/%s", dev, file);
	return read_file(path);
}

static void sample_process(struct qrow *r, double t)
{
	char path[PATH_MAX], *text, *p;
	unsigned long long rb = 0, wb = 0;
	struct hist *h;

	path_of(path, sizeof(path), "/proc/%ld/comm", r->pid);
	text = read_file(path);
	copy_str(r->comm, sizeof(r->comm), text ? text : "?");
	r->comm[strcspn(r->comm, "\n")] = '\0';
	free(text);

	path_of(path, sizeof(path), "/proc/%ld/io", r->pid);
	text = read_file(path);
	if (!text)
		return;
	p = strstr(text, "read_bytes:");
	if (p)
		rb = strtoull(p + 11, NULL, 10);
	p = strstr(text, "\nwrite_bytes:");
	if (p)
		wb = strtoull(p + 13, NULL, 10);
	free(text);
	h = hist_get("", r->pid);
	if (h->t == t) {		/* already sampled for another device */
		r->io_kib_s = h->io_kib_s;
		return;
	}
	h->io_kib_s = -1;
	if (h->t > 0 && t > h->t && rb + wb >= h->io_bytes)
		h->io_kib_s = (rb + wb - h->io_bytes) / 1024.0 / (t - h->t);
	r->io_kib_s = h->io_kib_s;
	h->io_bytes = rb + wb;
	h->t = t;
	h->seen = 1;
}

/* Read one device's files; 0 if it is gone or they are not readable. */
static int sample_device(const char *name, const char *elv, struct dev *d, double t)
{
	char *state, *stats, *queues;
	size_t i;
	int ok;

	memset(d, 0, sizeof(*d));
	copy_str(d->name, sizeof(d->name), name);
	copy_str(d->elevator, sizeof(d->elevator), elv);
	state = read_sched_file(name, "state");
	stats = read_sched_file(name, "stats");
	queues = read_sched_file(name, "queues");
	ok = state && stats && queues;
	if (ok) {
		d->unknown_lines += parse_kv_lines(state, &d->state);
		d->unknown_lines += parse_kv_lines(stats, &d->stats);
		parse_queues(queues, d);
		for (i = 0; i < d->nq; i++)
			sample_process(&d->q[i], t);
	}
	free(state);
	free(stats);
	free(queues);
	return ok;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct dev *)a)->name, ((const struct dev *)b)->name);
}

/* Every shown device, sorted by name; returns how many. */
static size_t sample_all(struct dev **out, double t, int *unreadable)
{
	char path[PATH_MAX], elv[TOP_NAME_LEN];
	struct dev *devs = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *dir;

	path_of(path, sizeof(path), "/sys/block");
	dir = opendir(path);
	while (dir && (de = readdir(dir))) {
		if (de->d_name[0] == '.' || !wanted(de->d_name))
			continue;
		if (!device_elevator(de->d_name, elv, sizeof(elv)))
			continue;
		devs = grow(devs, &cap, n + 1, sizeof(*devs));
		if (sample_device(de->d_name, elv, &devs[n], t)) {
			n++;
		} else {
			(*unreadable)++;
			dev_free(&devs[n]);
		}
	}
	if (dir)
		closedir(dir);
	if (n)
		qsort(devs, n, sizeof(*devs), cmp_name);
	*out = devs;
	return n;
}

/* --------------------------------------------------------------- output */

static const char *const where_rank_order[] = { "serving", "active", "idle", "off" };

static int where_rank(const struct qrow *r)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(where_rank_order); i++)
		if (!strcmp(r->where, where_rank_order[i]))
			return i;
	return i;
}

static long num_field(const struct qrow *r, const char *key)
{
	const char *v = kv_get(&r->f, key);

	return v ? strtol(v, NULL, 10) : 0;
}

/* Serving first, then by requests held, then by pid. */
static int cmp_queue(const void *a, const void *b)
{
	const struct qrow *x = a, *y = b;
	long bx = num_field(x, "queued") + num_field(x, "dispatched");
	long by = num_field(y, "queued") + num_field(y, "dispatched");

	if (where_rank(x) != where_rank(y))
		return where_rank(x) - where_rank(y);
	if (bx != by)
		return bx < by ? 1 : -1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static void print_state(const struct dev *d)
{
	size_t i;

	printf("state");
	for (i = 0; i < d->state.n; i++)
		printf(" %s=%s", d->state.v[i].key, d->state.v[i].val);
	printf("\n");
}

/* Counters with their rate per second since the previous refresh. */
static void print_stats(const struct dev *d, double t)
{
	struct hist *h = hist_get(d->name, 0);
	double dt = h->t > 0 ? t - h->t : 0;
	const char *old;
	size_t i;

	printf("stats");
	for (i = 0; i < d->stats.n; i++) {
		const struct kv *kv = &d->stats.v[i];

		printf(" %s=%s", kv->key, kv->val);
		old = kv_get(&h->stats, kv->key);
		if (dt > 0 && old && is_number(old) && is_number(kv->val) &&
		    strtod(kv->val, NULL) != strtod(old, NULL))
			printf("(%+.1f/s)", (strtod(kv->val, NULL) - strtod(old, NULL)) / dt);
	}
	printf("\n");
	kv_copy(&h->stats, &d->stats);
	h->t = t;
	h->seen = 1;
}

static const char *field(const struct qrow *r, const char *key)
{
	const char *v = kv_get(&r->f, key);

	return v ? v : "-";
}

static void print_queue(const struct qrow *r)
{
	char rate[32];

	if (r->io_kib_s < 0)
		copy_str(rate, sizeof(rate), "-");
	else
		snprintf(rate, sizeof(rate), "%.0f", r->io_kib_s);
	printf("%7ld %-15.15s %-5.5s %-7.7s %-5.5s %6s %8s %8s %6s %5s %-11.11s %6s %9s\n",
	       r->pid, r->comm, r->type[0] ? r->type : "-",
	       r->where[0] ? r->where : "-", field(r, "class"), field(r, "weight"),
	       field(r, "budget"), field(r, "service"), field(r, "queued"),
	       field(r, "dispatched"), field(r, "raising"), field(r, "ttime_us"),
	       rate);
}

static void print_device(struct dev *d, double t, size_t max_rows)
{
	size_t i;

	printf("device %s scheduler %s queues %zu\n", d->name, d->elevator, d->nq);
	print_state(d);
	print_stats(d, t);
	qsort(d->q, d->nq, sizeof(*d->q), cmp_queue);
	printf("%7s %-15s %-5s %-7s %-5s %6s %8s %8s %6s %5s %-11s %6s %9s\n",
	       "PID", "COMM", "TYPE", "WHERE", "CLASS", "WEIGHT", "BUDGET", "SERVICE",
	       "QUEUED", "DISP", "RAISING", "TT_US", "PROC_KB/s");
	for (i = 0; i < d->nq && i < max_rows; i++)
		print_queue(&d->q[i]);
	if (i < d->nq)
		printf("... %zu more queues\n", d->nq - i);
	if (d->unknown_lines)
		printf("(%u lines not understood)\n", d->unknown_lines);
	printf("\n");
}

static size_t screen_rows(void)
{
	struct winsize ws;

	if (opt.batch || ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) || ws.ws_row < 10)
		return (size_t)-1;
	return ws.ws_row;
}

static void refresh(long iteration)
{
	size_t i, n, rows = screen_rows(), per_dev;
	double t = now_s();
	int unreadable = 0;
	struct dev *devs;
	char stamp[32];
	time_t wall = time(NULL);

	n = sample_all(&devs, t, &unreadable);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&wall));
	if (!opt.batch)
		printf("\033[H\033[2J");
	printf("bfq-ng-top %s refresh %ld devices %zu\n", stamp, iteration, n);
	if (!n && unreadable)
		printf("no device uses %s (or its debugfs files are unreadable: root? debugfs mounted?)\n",
		       opt.elevators[0]);
	else if (!n)
		printf("no device uses %s\n", opt.elevators[0]);
	per_dev = n && rows != (size_t)-1 ? (rows - 2) / n : (size_t)-1;
	for (i = 0; i < n; i++) {
		print_device(&devs[i], t, per_dev > 6 ? per_dev - 6 : 1);
		dev_free(&devs[i]);
	}
	free(devs);
	hist_prune();
	fflush(stdout);
}

/* ------------------------------------------------------------ terminal */

static void tty_restore(void)
{
	if (tty_raw)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved_tty);
	tty_raw = 0;
}

static void tty_setup(void)
{
	struct termios t;

	if (opt.batch || !isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &saved_tty))
		return;
	t = saved_tty;
	t.c_lflag &= ~(ICANON | ECHO);
	t.c_cc[VMIN] = 0;
	t.c_cc[VTIME] = 0;
	if (!tcsetattr(STDIN_FILENO, TCSANOW, &t)) {
		tty_raw = 1;
		atexit(tty_restore);
	}
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* Sleep the refresh delay; 'q' on the terminal ends the run. */
static void wait_next(void)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	double end = now_s() + opt.delay_s;
	char c;

	while (!stop) {
		double left = end - now_s();

		if (left <= 0)
			return;
		if (!tty_raw) {
			struct timespec ts = { (time_t)left, (long)((left - (time_t)left) * 1e9) };

			nanosleep(&ts, NULL);
			continue;
		}
		if (poll(&p, 1, (int)(left * 1000) + 1) > 0 &&
		    read(STDIN_FILENO, &c, 1) == 1 && (c == 'q' || c == 'Q'))
			stop = 1;
	}
}

/* ---------------------------------------------------------------- main */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: bfq-ng-top [-b] [-n N] [-d SECONDS] [-e ELEVATOR]... [-r ROOT] [DEVICE...]\n"
		"  -b        batch mode: plain text, no screen control (for scripts)\n"
		"  -n N      stop after N refreshes (default: until 'q' or a signal)\n"
		"  -d SEC    seconds between refreshes (default 2; decimals allowed)\n"
		"  -e NAME   show devices using elevator NAME (default bfq-ng; repeatable)\n"
		"  -r ROOT   read ROOT/sys/... and ROOT/proc/... instead (testing)\n"
		"  DEVICE    only these devices (e.g. sda)\n"
		"Reads /sys/kernel/debug/block/<dev>/sched/{state,stats,queues}: run as root.\n");
}

static void parse_args(int argc, char **argv)
{
	char *end;
	int c;

	while ((c = getopt(argc, argv, "bn:d:e:r:h")) != -1) {
		switch (c) {
		case 'b':
			opt.batch = 1;
			break;
		case 'n':
			opt.iterations = strtol(optarg, &end, 10);
			if (*end || opt.iterations < 1)
				goto bad;
			break;
		case 'd':
			opt.delay_s = strtod(optarg, &end);
			if (*end || !(opt.delay_s >= 0.05 && opt.delay_s <= 3600))
				goto bad;
			break;
		case 'e':
			if (opt.nr_elevators == TOP_MAX_ELEVATORS)
				goto bad;
			opt.elevators[opt.nr_elevators++] = optarg;
			break;
		case 'r':
			opt.root = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			goto bad;
		}
	}
	if (!opt.nr_elevators)
		opt.elevators[opt.nr_elevators++] = "bfq-ng";
	opt.only = argv + optind;
	opt.nr_only = argc - optind;
	return;
bad:
	usage(stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	long i;

	parse_args(argc, argv);
	if (!opt.batch && !isatty(STDOUT_FILENO))
		opt.batch = 1;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_DFL);
	tty_setup();
	for (i = 1; !stop && (!opt.iterations || i <= opt.iterations); i++) {
		if (i > 1)
			wait_next();
		if (!stop)
			refresh(i);
	}
	tty_restore();
	return 0;
}
