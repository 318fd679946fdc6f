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
 */
#include <linux/module.h>
#include <linux/string.h>

static char *what = "warn";
module_param(what, charp, 0444);
MODULE_PARM_DESC(what, "step or warn");

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

static int __init bfqng_fault_init(void)
{
	if (!strcmp(what, "step"))
		bfqng_fault_step();
	else if (!strcmp(what, "warn"))
		WARN_ON(1);
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
