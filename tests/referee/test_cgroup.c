/* Finding the referee's own cgroup (cgroup.h): the lines of
 * /proc/self/mountinfo and /proc/self/cgroup it reads. The groups
 * themselves are tested end to end (tests/sandbox, case mem_cap). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cgroup.h"

static void a_v1_mount_names_its_controllers(void **state)
{
    (void)state;
    char mnt[64], root[64];
    const char *line = "35 25 0:30 / /sys/fs/cgroup/memory rw,relatime shared:14 - cgroup cgroup "
                       "rw,memory\n";
    assert_true(cgroup_parse_mount(line, "memory", mnt, root, sizeof mnt));
    assert_string_equal(mnt, "/sys/fs/cgroup/memory");
    assert_string_equal(root, "/");
    assert_false(cgroup_parse_mount(line, "pids", mnt, root, sizeof mnt));
    /* Several controllers, and no optional tags. */
    const char *both = "30 25 0:26 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct";
    assert_true(cgroup_parse_mount(both, "cpuacct", mnt, root, sizeof mnt));
    assert_string_equal(mnt, "/sys/fs/cgroup/cpu,cpuacct");
    assert_false(cgroup_parse_mount(both, "cpuac", mnt, root, sizeof mnt));
}

static void other_mounts_are_not_v1_hierarchies(void **state)
{
    (void)state;
    char mnt[64], root[64];
    /* cgroup v2 has no controller list in its options: never taken. */
    assert_false(cgroup_parse_mount(
        "29 25 0:25 / /sys/fs/cgroup rw shared:4 - cgroup2 cgroup2 rw,memory_recursiveprot",
        "memory", mnt, root, sizeof mnt));
    assert_false(cgroup_parse_mount("22 1 8:1 / / rw - ext4 /dev/sda1 rw,memory", "memory", mnt,
                                    root, sizeof mnt));
    assert_false(cgroup_parse_mount("garbage", "memory", mnt, root, sizeof mnt));
}

static void a_mounted_subtree_keeps_its_root(void **state)
{
    (void)state;
    char mnt[64], root[64];
    assert_true(cgroup_parse_mount(
        "900 899 0:30 /docker/abc /sys/fs/cgroup/memory ro - cgroup cgroup rw,memory", "memory",
        mnt, root, sizeof mnt));
    assert_string_equal(root, "/docker/abc");
    /* Too long for the buffer: refused, not cut. */
    char small[8];
    assert_false(cgroup_parse_mount("1 1 0:30 / /sys/fs/cgroup/memory rw - cgroup cgroup memory",
                                    "memory", small, root, sizeof small));
}

static void the_own_group_is_read_per_controller(void **state)
{
    (void)state;
    char path[64];
    assert_true(cgroup_parse_self("4:memory:/process_api/4a5d\n", "memory", path, sizeof path));
    assert_string_equal(path, "/process_api/4a5d");
    assert_true(cgroup_parse_self("2:cpu,cpuacct:/user.slice\n", "cpu", path, sizeof path));
    assert_string_equal(path, "/user.slice");
    assert_false(cgroup_parse_self("0::/init.scope\n", "memory", path, sizeof path));
    assert_false(cgroup_parse_self("8:pids:/\n", "memory", path, sizeof path));
    assert_false(cgroup_parse_self("no colons", "memory", path, sizeof path));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_v1_mount_names_its_controllers),
        cmocka_unit_test(other_mounts_are_not_v1_hierarchies),
        cmocka_unit_test(a_mounted_subtree_keeps_its_root),
        cmocka_unit_test(the_own_group_is_read_per_controller),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
