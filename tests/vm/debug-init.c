// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the debug-lane initramfs (built statically by
 * scripts/debug-kernel.sh).  The guest image only carries the stock kernel's
 * modules, so this initramfs brings the debug kernel's /lib/modules/<release>.
 * It mounts the root named by root= (rootfstype=, default ext4), bind-mounts
 * the modules tree into it, moves /dev along, switches root and execs the
 * init= program (default /sbin/init): the stock boot path from there on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>

static char root_dev[256] = "/dev/vda";
static char root_type[64] = "ext4";
static char init_prog[256] = "/sbin/init";

static void fail(const char *what)
{
	fprintf(stderr, "debug-init: %s: %s\n", what, strerror(errno));
	/* PID 1 exiting panics the kernel; the host sees the guest die. */
	exit(1);
}

static void parse_cmdline(void)
{
	char buf[4096], *tok, *save;
	FILE *f = fopen("/proc/cmdline", "r");

	if (!f || !fgets(buf, sizeof(buf), f))
		fail("read /proc/cmdline");
	fclose(f);
	for (tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
		if (!strncmp(tok, "root=", 5))
			snprintf(root_dev, sizeof(root_dev), "%s", tok + 5);
		else if (!strncmp(tok, "rootfstype=", 11))
			snprintf(root_type, sizeof(root_type), "%s", tok + 11);
		else if (!strncmp(tok, "init=", 5))
			snprintf(init_prog, sizeof(init_prog), "%s", tok + 5);
	}
}

int main(void)
{
	char src[512], dst[512];
	struct utsname u;
	struct stat st;
	int i;

	mkdir("/dev", 0755);
	mkdir("/proc", 0555);
	mkdir("/root", 0700);
	if (mount("devtmpfs", "/dev", "devtmpfs", 0, NULL))
		fail("mount /dev");
	if (mount("proc", "/proc", "proc", 0, NULL))
		fail("mount /proc");
	parse_cmdline();
	if (uname(&u))
		fail("uname");

	for (i = 0; i < 100 && stat(root_dev, &st); i++)
		usleep(100000);
	if (mount(root_dev, "/root", root_type, 0, NULL))
		fail(root_dev);

	snprintf(src, sizeof(src), "/lib/modules/%s", u.release);
	mkdir("/root/lib", 0755);
	mkdir("/root/lib/modules", 0755);
	snprintf(dst, sizeof(dst), "/root/lib/modules/%s", u.release);
	if (mkdir(dst, 0755) && errno != EEXIST)
		fail(dst);
	if (mount(src, dst, NULL, MS_BIND | MS_REC, NULL))
		fail("bind-mount the modules");

	if (mount("/dev", "/root/dev", NULL, MS_MOVE, NULL))
		umount2("/dev", MNT_DETACH);
	umount2("/proc", MNT_DETACH);

	if (chdir("/root") || mount(".", "/", NULL, MS_MOVE, NULL) || chroot(".") || chdir("/"))
		fail("switch root");
	execl(init_prog, init_prog, (char *)NULL);
	fail(init_prog);
	return 1;
}
