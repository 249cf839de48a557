// SPDX-License-Identifier: GPL-2.0-or-later
static uint64_t random_seed = 1;
static void run_random_tests(int *num_tests, int *num_fail)
{
}
