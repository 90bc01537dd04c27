/* sanfab — the wave re-run of a failing lockstep bench (tb/common/rerun.h). */
#define _POSIX_C_SOURCE 200809L
#include "rerun.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

uint64_t bench_rerun_start(uint64_t fail, uint64_t window) { return fail > window ? fail - window : 1; }

int bench_rerun_vcd(const char *prog, int argc, char *const *argv, uint64_t start, const char *vcd)
{
    char s[32];
    snprintf(s, sizeof s, "%" PRIu64, start);
    char **av = calloc((size_t)argc + 4, sizeof *av);
    if (!av)
        return -1;
    int n = 0;
    for (int i = 0; i < argc; i++)
        av[n++] = argv[i];
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
    if (pid > 0 && waitpid(pid, &st, 0) == pid)
        fprintf(stderr, "%s: trace of steps %s.. in %s\n", prog, s, vcd);
    else
        st = -1;
    free(av);
    return st;
}
