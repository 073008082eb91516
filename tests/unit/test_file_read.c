/*
 * test_file_read.c: the whole-file reader (pd_file.h) gives every byte of
 * a regular file, of a file whose size the kernel reports as 0 (Linux's
 * /proc), and of a pipe on standard input; it bounds by `max` and says
 * which file it cannot open or read.  Its reads of a regular file stop at
 * a short read once the file's size is in (pd_file.c), so the sizes
 * around its buffer's doubling (256 bytes, then powers of two) are here.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "pd_error.h"
#include "pd_file.h"

static char dir[] = "/tmp/pd_file_read_XXXXXX";

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[256];

    (void)state;
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Bytes i of a test file: every value, no pattern of the buffer's size. */
static char byte_at(size_t i)
{
    return (char)((i * 131 + i / 256) & 0xff);
}

static void write_file(const char *path, size_t n)
{
    FILE *f = fopen(path, "wb");
    size_t i;

    assert_non_null(f);
    for (i = 0; i < n; i++)
        assert_int_equal(fputc((unsigned char)byte_at(i), f), (unsigned char)byte_at(i));
    assert_int_equal(fclose(f), 0);
}

static void test_regular_files_whole(void **state)
{
    static const size_t sizes[] = {0, 1, 254, 255, 256, 257, 4095, 4096, 65535,
                                   65536, 65537, 131071, 200000};
    char path[128];
    size_t k, i, len;
    char *text;

    (void)state;
    for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        snprintf(path, sizeof(path), "%s/f%zu", dir, sizes[k]);
        write_file(path, sizes[k]);
        len = 12345;
        assert_int_equal(pd_file_read(path, 0, NULL, &text, &len), 0);
        assert_int_equal(len, sizes[k]);
        for (i = 0; i < len; i++)
            if (text[i] != byte_at(i))
                fail_msg("%s: byte %zu differs", path, i);
        assert_int_equal(text[len], '\0');
        free(text);
    }
}

static void test_max_bounds(void **state)
{
    char path[128], *text = (char *)1;
    size_t len;

    (void)state;
    snprintf(path, sizeof(path), "%s/bounded", dir);
    write_file(path, 1000);
    assert_int_equal(pd_file_read(path, 1000, NULL, &text, &len), 0);
    assert_int_equal(len, 1000);
    free(text);
    assert_int_equal(pd_file_read(path, 999, NULL, &text, &len), PD_EINVAL);
    assert_null(text);
    assert_non_null(strstr(pd_error_last(), "is over 999 bytes"));
}

static void test_errors_name_the_file(void **state)
{
    char path[128], *text = (char *)1;

    (void)state;
    snprintf(path, sizeof(path), "%s/missing", dir);
    assert_int_equal(pd_file_read(path, 0, "rules file", &text, NULL), PD_EIO);
    assert_null(text);
    assert_non_null(strstr(pd_error_last(), "cannot open rules file "));
    assert_non_null(strstr(pd_error_last(), path));
    /* the reason: a missing file and one that may not be read differ */
    assert_non_null(strstr(pd_error_last(), ": No such file or directory"));
    /* A directory opens but cannot be read. */
    assert_int_equal(pd_file_read(dir, 0, NULL, &text, NULL), PD_EIO);
    assert_null(text);
    assert_non_null(strstr(pd_error_last(), "cannot read "));
    assert_non_null(strstr(pd_error_last(), dir));
}

/* /proc/self/maps says 0 bytes and returns a page or so a read: every
 * line must come, as stdio reads them. */
static void test_size_zero_file_read_on(void **state)
{
    char *text, line[4096], *p = line;
    size_t len;
    FILE *f;
    struct stat sb;

    (void)state;
    if (stat("/proc/self/maps", &sb) < 0 || !S_ISREG(sb.st_mode) || sb.st_size != 0)
        skip();
    assert_int_equal(pd_file_read("/proc/self/maps", 0, NULL, &text, &len), 0);
    assert_int_equal(strlen(text), len);
    /* The maps change as we read; the last line stdio finds (the vsyscall
     * page, or the stack) is there, so the read went past the first page. */
    assert_true(len > 4096);
    f = fopen("/proc/self/maps", "r");
    assert_non_null(f);
    while (fgets(line, sizeof(line), f))
        p = line;
    fclose(f);
    assert_non_null(strstr(text, strrchr(p, ' ') ? strrchr(p, ' ') : p));
    free(text);
}

static void *feed_pipe(void *arg)
{
    int fd = *(int *)arg;
    size_t i;
    char c;

    for (i = 0; i < 300000; i++) {
        c = byte_at(i);
        if (write(fd, &c, 1) != 1)
            break;
    }
    close(fd);
    return NULL;
}

static void test_stdin_pipe(void **state)
{
    int fds[2], saved = dup(STDIN_FILENO);
    pthread_t t;
    char *text;
    size_t len, i;

    (void)state;
    assert_int_equal(pipe(fds), 0);
    assert_int_equal(dup2(fds[0], STDIN_FILENO), STDIN_FILENO);
    close(fds[0]);
    assert_int_equal(pthread_create(&t, NULL, feed_pipe, &fds[1]), 0);
    assert_int_equal(pd_file_read("-", 0, NULL, &text, &len), 0);
    pthread_join(t, NULL);
    dup2(saved, STDIN_FILENO);
    close(saved);
    assert_int_equal(len, 300000);
    for (i = 0; i < len; i++)
        if (text[i] != byte_at(i))
            fail_msg("byte %zu differs", i);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regular_files_whole),
        cmocka_unit_test(test_max_bounds),
        cmocka_unit_test(test_errors_name_the_file),
        cmocka_unit_test(test_size_zero_file_read_on),
        cmocka_unit_test(test_stdin_pipe),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
