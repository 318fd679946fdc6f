// SPDX-License-Identifier: GPL-2.0
/*
 * A test-only module for the harness's own test (tests/host/h05-harness-
 * resume.sh), loaded only inside the test VM: it makes the guest kernel
 * die the way an emulator fault or a real bug would, at insmod.
 *   what=step   take a single-step trap in kernel mode (the trap flag set
 *               by hand): the kernel warns in exc_debug_kernel, as it did
 *               when multi-threaded TCG raised such a trap on its own
 *   what=warn   a plain WARN_ON, as a bug in the code under test would
 * With panic_on_warn (the test VM's command line) either one kills the VM.
 *   what=dfproof  the console text of the double fault multi-threaded TCG
 *               raised in kmem_cache_alloc (an EFLAGS no CPU can hold,
 *               ext4 in the trace), printed as is, then a panic with no
 *               stack dump of its own: software cannot make the CPU save
 *               such an EFLAGS, so the harness's handling of it is tested
 *               on its text
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/panic.h>
#include <linux/string.h>

static char *what = "warn";
module_param(what, charp, 0444);
MODULE_PARM_DESC(what, "step, warn or dfproof");

static noinline void bfqng_fault_step(void)
{
	/* TF on, one instruction, TF off: the trap comes after the nop. */
	asm volatile("pushfq\n\t"
		     "orq $0x100, (%%rsp)\n\t"
		     "popfq\n\t"
		     "nop\n\t"
		     "pushfq\n\t"
		     "andq $~0x100, (%%rsp)\n\t"
		     "popfq\n\t"
		     ::: "memory", "cc");
}

static const char *const bfqng_fault_df_text[] = {
	"traps: PANIC: double fault, error_code: 0x0",
	"Oops: double fault: 0000 [#1] PREEMPT SMP NOPTI",
	"RIP: 0010:kmem_cache_alloc_noprof+0x6b/0x2f0",
	"RSP: 0018:ff676c5e0159b7b0 EFLAGS: c0478f02",
	"Call Trace:",
	" <TASK>",
	" ext4_init_io_end+0x1f/0x50 [ext4]",
	" do_writepages+0x87/0x280",
	" </TASK>",
	"Modules linked in: bfqng_fault(OE) ext4 crc16 mbcache jbd2",
};

static noinline void bfqng_fault_dfproof(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bfqng_fault_df_text); i++)
		pr_emerg("%s\n", bfqng_fault_df_text[i]);
	/* As after a real Oops: panic() then dumps no stack of its own. */
	add_taint(TAINT_DIE, LOCKDEP_NOW_UNRELIABLE);
	panic("Fatal exception in interrupt");
}

static int __init bfqng_fault_init(void)
{
	if (!strcmp(what, "step"))
		bfqng_fault_step();
	else if (!strcmp(what, "warn"))
		WARN_ON(1);
	else if (!strcmp(what, "dfproof"))
		bfqng_fault_dfproof();
	else
		return -EINVAL;
	return 0;
}

static void __exit bfqng_fault_exit(void)
{
}

module_init(bfqng_fault_init);
module_exit(bfqng_fault_exit);
MODULE_DESCRIPTION("bfq-ng harness self-test: a fault on demand");
MODULE_LICENSE("GPL");
