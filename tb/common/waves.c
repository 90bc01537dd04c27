/* sanfab — waves on demand (tb/common/waves.h). */
#define _POSIX_C_SOURCE 200809L
#include "waves.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int bench_waves_check_path(const char *prog, const char *opt, const char *path)
{
    struct stat st;
    if (!path || !*path) {
        fprintf(stderr, "%s: %s wants a file name\n", prog, opt);
        return 2;
    }
    int existed = stat(path, &st) == 0;
    if (existed && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "%s: %s %s: is a directory, not a file\n", prog, opt, path);
        return 2;
    }
    int fd = open(path, O_WRONLY | (existed ? 0 : O_CREAT | O_EXCL), 0666);
    if (fd < 0) {
        int e = errno;
        if (e == ENOENT) {
            /* the directory part is missing */
            char dir[4096];
            snprintf(dir, sizeof dir, "%s", path);
            char *slash = strrchr(dir, '/');
            if (slash && slash != dir)
                *slash = 0;
            fprintf(stderr, "%s: %s %s: cannot be written: directory %s does not exist\n", prog, opt, path, dir);
        } else
            fprintf(stderr, "%s: %s %s: cannot be written: %s\n", prog, opt, path, strerror(e));
        return 2;
    }
    close(fd);
    if (!existed)
        unlink(path);
    return 0;
}

int bench_waves_check(const char *prog, const bench_waves_t *w, int has_rtl)
{
    if (w->vcd && w->on_fail) {
        fprintf(stderr, "%s: give --vcd FILE (this run's waves) or --vcd-on-fail FILE (a failing run's), not both\n",
                prog);
        return 2;
    }
    if (w->start && !w->vcd) {
        fprintf(stderr, "%s: --vcd-start goes with --vcd FILE (--vcd-on-fail writes the last --vcd-cycles cycles "
                        "before the failure)\n", prog);
        return 2;
    }
    if (!w->vcd && !w->on_fail)
        return 0;
    if (!has_rtl) {
        fprintf(stderr, "%s: %s needs the RTL (a Verilated build, not --mode model)\n", prog,
                w->vcd ? "--vcd" : "--vcd-on-fail");
        return 2;
    }
    return w->vcd ? bench_waves_check_path(prog, "--vcd", w->vcd) : bench_waves_check_path(prog, "--vcd-on-fail", w->on_fail);
}

int bench_waves_at(const bench_waves_t *w, uint64_t cycle, uint64_t first)
{
    uint64_t start = w->start > first ? w->start : first;
    if (!w->vcd || cycle < start)
        return 0;
    if (w->cycles && cycle - start >= w->cycles)
        return -1;
    return 1;
}

uint64_t bench_waves_fail_start(const bench_waves_t *w, uint64_t fail, uint64_t first)
{
    uint64_t n = w->cycles ? w->cycles : BENCH_WAVES_ON_FAIL_CYCLES;
    /* the window ends with the failing cycle: n cycles, fail - n + 1 .. fail */
    return fail >= first + n ? fail - n + 1 : first;
}

void bench_waves_print(FILE *f, const char *indent, const char *path, int written, const uint64_t range[2],
                       uint64_t start)
{
    if (written)
        fprintf(f, "%swaves: %s (cycles %" PRIu64 "..%" PRIu64 ")\n", indent, path, range[0], range[1]);
    else
        fprintf(f, "%swaves: none written to %s (the run ended before cycle %" PRIu64 ", --vcd-start)\n", indent,
                path, start);
}

void bench_waves_usage(FILE *f, const char *indent)
{
    fprintf(f,
            "%s--vcd FILE          write the RTL's waves of this run to FILE, passing or failing (every cycle,\n"
            "%s                    or the window below); prints 'waves: FILE (cycles A..B)'\n"
            "%s--vcd-start N       with --vcd: the window's first cycle (default: the run's first)\n"
            "%s--vcd-cycles N      with --vcd: the window's length (default: to the end of the run);\n"
            "%s                    with --vcd-on-fail: the cycles up to the failing one (default %u)\n"
            "%s--vcd-on-fail FILE  waves of a failing run only: after a failure, replay the run from reset\n"
            "%s                    and write its last --vcd-cycles cycles to FILE (a passing run writes\n"
            "%s                    nothing and is not slowed down)\n"
            "%s                    VCD time: bench cycle c rises at 10c+5 ns; GTKWave save files in\n"
            "%s                    tb/<block>/*.gtkw (docs/verification.md, \"Waves\")\n",
            indent, indent, indent, indent, indent, BENCH_WAVES_ON_FAIL_CYCLES, indent, indent, indent, indent,
            indent);
}
