// SPDX-License-Identifier: GPL-2.0
/*
 * tsc-khz: print the TSC frequency of this x86 host in kHz, measured
 * against CLOCK_MONOTONIC_RAW over 200 ms.
 *
 * QEMU's TCG returns the host's TSC to an x86 guest's RDTSC, so this is
 * the guest's TSC frequency too.  qemu-run.sh passes it as tsc_early_khz=:
 * without ACPI the guest has no HPET or PM timer to calibrate against, and
 * when the PIT calibration fails under load the kernel marks the TSC
 * unstable and times everything with jiffies.
 */
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(void)
{
	struct timespec d = { 0, 200 * 1000 * 1000 };
	double t0, t1;
	unsigned long long c0, c1;

	t0 = now();
	c0 = __rdtsc();
	nanosleep(&d, NULL);
	t1 = now();
	c1 = __rdtsc();
	printf("%.0f\n", (c1 - c0) / (t1 - t0) / 1000);
	return 0;
}
