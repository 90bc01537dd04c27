/* sanfab — the --vcd-on-fail re-run of a failing lockstep bench (tb/common/rerun.h). */
#define _POSIX_C_SOURCE 200809L
#include "rerun.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int bench_rerun_vcd(const char *prog, const char *indent, int argc, char *const *argv, const bench_waves_t *w,
                    uint64_t fail, uint64_t first)
{
    static const char *const drop[] = {"--vcd", "--vcd-on-fail", "--vcd-start", "--vcd-cycles"};
    uint64_t start = bench_waves_fail_start(w, fail, first);
    char s[32];
    snprintf(s, sizeof s, "%" PRIu64, start);
    char **av = calloc((size_t)argc + 6, sizeof *av);
    if (!av)
        return -1;
    int n = 0;
    for (int i = 0; i < argc; i++) {
        int skip = 0;
        for (size_t k = 0; i > 0 && k < sizeof drop / sizeof drop[0]; k++)
            skip |= strcmp(argv[i], drop[k]) == 0;
        if (skip) {
            i++; /* and its value */
            continue;
        }
        av[n++] = argv[i];
    }
    av[n++] = "--vcd";
    av[n++] = (char *)w->on_fail;
    av[n++] = "--vcd-start";
    av[n++] = s;
    av[n++] = "--quiet";
    av[n] = NULL;
    fflush(stdout);
    fflush(stderr);
    int st = -1;
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0)
            dup2(fd, 1);
        execv("/proc/self/exe", av);
        _exit(127);
    }
    if (pid > 0 && waitpid(pid, &st, 0) == pid) {
        if (WIFEXITED(st) && WEXITSTATUS(st) == 1)
            printf("%swaves: %s (cycles %" PRIu64 "..%" PRIu64 ")\n", indent, w->on_fail, start, fail);
        else
            printf("%swaves: %s: the replay did not fail again (status %d); the file may be incomplete\n", indent,
                   w->on_fail, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    } else {
        fprintf(stderr, "%s: cannot run the wave replay\n", prog);
        st = -1;
    }
    fflush(stdout);
    free(av);
    return st;
}
