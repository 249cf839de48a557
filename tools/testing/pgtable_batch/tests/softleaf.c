// SPDX-License-Identifier: GPL-2.0-or-later
static void run_softleaf_tests(int *num_tests, int *num_fail)
{
}
