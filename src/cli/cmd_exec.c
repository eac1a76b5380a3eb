/* cmd_exec.c - `warpsim exec`: runs an unmodified CUDA program (built by nvcc with
 * -cudart shared) on the simulator, through warpsim's libcudart (src/cudart):
 * libcudart.so.13 for programs built by CUDA 13, libcudart.so.12 for CUDA 12, both in the
 * same directory, so the dynamic linker picks the one the program NEEDs.
 *
 * The options become the environment the library reads (WARPSIM_CONFIG, WARPSIM_SET,
 * WARPSIM_MODE, WARPSIM_STATS for --json), LD_LIBRARY_PATH gets the library's directory
 * first, and the library writes the same text report as `warpsim run` to a temporary
 * file (WARPSIM_REPORT) that is printed once the program has exited. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"

void cli_exec_help(FILE *f)
{
    fputs("usage: warpsim exec [options] [--] PROGRAM [ARGS...]\n\n"
          "Runs an unmodified CUDA program on the simulated GPU: PROGRAM must be built by\n"
          "nvcc with `-cudart shared` and carry PTX (e.g. -gencode\n"
          "arch=compute_75,code=compute_75; nvcc's default does). Its CUDA Runtime calls go\n"
          "to warpsim's libcudart.so.13, or libcudart.so.12 for a program built by CUDA 12\n"
          "(docs/CUDART.md); after it exits, the statistics of its kernel launches are\n"
          "printed as by `warpsim run`.\n\noptions:\n" CLI_CFG_HELP
          "  --json FILE    also write the report as JSON to FILE (WARPSIM_STATS)\n"
          "  --no-report    do not print the text report\n"
          "  --all-launches print every launch in the text report\n"
          "  --quiet        no progress line (shown on a terminal while a launch runs\n"
          "                 longer than a second)\n"
          "  --cudart DIR   directory of warpsim's libcudart.so.13 and .so.12; default\n"
          "                 $WARPSIM_CUDART_DIR, else cudart/ beside this executable\n"
          "  --help         this text\n\n"
          "The exit code is the program's; 2 bad command line or no library found,\n"
          "3 configuration error, 128+N when the program died of signal N.\n",
          f);
}

/* cudart/ beside the warpsim executable (build/warpsim -> build/cudart). */
static int default_dir(char *out, size_t n)
{
    char exe[PATH_MAX];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k <= 0)
        return -1;
    exe[k] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash)
        return -1;
    *slash = 0;
    return snprintf(out, n, "%s/cudart", exe) < (int)n ? 0 : -1;
}

/* The program's file as execvp finds it. */
static int resolve(const char *prog, char *out, size_t n)
{
    if (strchr(prog, '/'))
        return snprintf(out, n, "%s", prog) < (int)n ? 0 : -1;
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *end = strchr(path, ':');
        int len = end ? (int)(end - path) : (int)strlen(path);
        if (snprintf(out, n, "%.*s/%s", len, len ? path : ".", prog) < (int)n &&
            access(out, X_OK) == 0)
            return 0;
        path = end ? end + 1 : NULL;
    }
    return -1;
}

/* The libcudart the program NEEDs ("libcudart.so.12"), read from its ELF dynamic section
 * into out; 0 when it needs none or is no 64-bit ELF file (a script, `env`, a program with
 * the runtime linked statically): the dynamic linker then decides alone. Every offset is
 * checked against what pread returns: a malformed file is "none". */
static int needed_cudart(const char *prog, char *out, size_t n)
{
    char path[PATH_MAX];
    if (resolve(prog, path, sizeof path))
        return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    int found = 0;
    Elf64_Ehdr eh;
    if (pread(fd, &eh, sizeof eh, 0) != (ssize_t)sizeof eh ||
        memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
        eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum > 4096)
        goto done;
    for (unsigned i = 0; i < eh.e_shnum && !found; i++) {
        Elf64_Shdr sh, str;
        if (pread(fd, &sh, sizeof sh, (off_t)(eh.e_shoff + i * sizeof sh)) != (ssize_t)sizeof sh)
            goto done;
        if (sh.sh_type != SHT_DYNAMIC || sh.sh_link >= eh.e_shnum ||
            pread(fd, &str, sizeof str, (off_t)(eh.e_shoff + sh.sh_link * sizeof str)) !=
                (ssize_t)sizeof str)
            continue;
        size_t count = sh.sh_size / sizeof(Elf64_Dyn);
        for (size_t k = 0; k < count && k < 4096 && !found; k++) {
            Elf64_Dyn d;
            off_t at = (off_t)(sh.sh_offset + k * sizeof d);
            if (pread(fd, &d, sizeof d, at) != (ssize_t)sizeof d || d.d_tag == DT_NULL)
                break;
            if (d.d_tag != DT_NEEDED || d.d_un.d_val >= str.sh_size)
                continue;
            char name[64] = "";
            ssize_t got = pread(fd, name, sizeof name - 1, (off_t)(str.sh_offset + d.d_un.d_val));
            if (got > 0 && !strncmp(name, "libcudart.so", 12)) {
                name[got] = 0;
                found = snprintf(out, n, "%s", name) < (int)n;
            }
        }
    }
done:
    close(fd);
    return found;
}

/* Copies the file to `to` (NULL: only reads it); -1 when missing or empty. */
static int print_file(const char *path, FILE *to)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char buf[4096];
    size_t got, total = 0;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
        if (to)
            fwrite(buf, 1, got, to);
        total += got;
    }
    fclose(f);
    return total ? 0 : -1;
}

enum { OPT_HELP = 1, OPT_JSON, OPT_NO_REPORT, OPT_ALL, OPT_CUDART, OPT_QUIET };

int cli_exec(int argc, char **argv)
{
    static const cli_opt opts[] = {{"help", 0, OPT_HELP},          {"json", 1, OPT_JSON},
                                   {"no-report", 0, OPT_NO_REPORT}, {"all-launches", 0, OPT_ALL},
                                   {"cudart", 1, OPT_CUDART},       {"quiet", 0, OPT_QUIET},
                                   CLI_CFG_OPTS,
                                   {NULL, 0, 0}};
    cli_args a = {argc, argv, 1, "warpsim exec"};
    cli_cfg_opts co = {0};
    const char *json = NULL, *dir = NULL, *val;
    int report = 1, all = 0, quiet = 0, id;
    while ((id = cli_next(&a, opts, &val)) > 0) {
        switch (id) {
        case OPT_HELP: cli_exec_help(stdout); return CLI_OK;
        case OPT_QUIET: quiet = 1; break;
        case OPT_JSON: json = val; break;
        case OPT_NO_REPORT: report = 0; break;
        case OPT_ALL: all = 1; break;
        case OPT_CUDART: dir = val; break;
        default:
            if (cli_cfg_opt(&co, id, val, a.cmd))
                return CLI_USAGE;
        }
    }
    if (id < 0)
        return CLI_USAGE;
    if (a.i >= argc) {
        fprintf(stderr, "%s: no program given (try --help)\n", a.cmd);
        return CLI_USAGE;
    }
    /* the configuration is checked here, so that a typo fails before the program runs */
    ws_config cfg;
    char source[1024];
    int rc = cli_cfg_build(&co, &cfg, source, sizeof source, a.cmd);
    if (rc)
        return rc;

    char libdir[PATH_MAX], probe[PATH_MAX + 32];
    if (!dir)
        dir = getenv("WARPSIM_CUDART_DIR");
    if (dir && *dir)
        snprintf(libdir, sizeof libdir, "%s", dir);
    else if (default_dir(libdir, sizeof libdir)) {
        fprintf(stderr, "%s: cannot locate warpsim's executable; use --cudart DIR\n", a.cmd);
        return CLI_USAGE;
    }
    /* the library the program needs (CUDA 13 or 12), when it says; else the CUDA 13 one */
    char needed[64] = "libcudart.so.13";
    if (needed_cudart(argv[a.i], needed, sizeof needed) &&
        strcmp(needed, "libcudart.so.13") && strcmp(needed, "libcudart.so.12")) {
        fprintf(stderr, "%s: %s needs %s; warpsim provides libcudart.so.13 and libcudart.so.12 "
                        "(programs built by CUDA 13 and 12): rebuild it with one of them\n",
                a.cmd, argv[a.i], needed);
        return CLI_USAGE;
    }
    snprintf(probe, sizeof probe, "%s/%s", libdir, needed);
    struct stat sb;
    if (stat(probe, &sb)) {
        fprintf(stderr, "%s: %s: %s (build the `%s` target, or use --cudart DIR)\n",
                a.cmd, probe, strerror(errno), strcmp(needed, "libcudart.so.12") ? "cudart"
                                                                                 : "cudart12");
        return CLI_USAGE;
    }

    /* the environment of the program; the progress line on a terminal (progress.h) */
    setenv("WARPSIM_PROGRESS", !quiet && isatty(STDERR_FILENO) ? "1" : "0", 1);
    if (co.config)
        setenv("WARPSIM_CONFIG", co.config, 1);
    if (co.n_sets) {
        const char *env_set = getenv("WARPSIM_SET");
        size_t len = (env_set ? strlen(env_set) : 0) + 1;
        for (int i = 0; i < co.n_sets; i++)
            len += strlen(co.sets[i]) + 1;
        char *s = malloc(len);
        if (!s)
            return CLI_USAGE;
        s[0] = 0;
        if (env_set && *env_set)
            strcat(s, env_set);
        for (int i = 0; i < co.n_sets; i++) {
            if (*s)
                strcat(s, ",");
            strcat(s, co.sets[i]);
        }
        setenv("WARPSIM_SET", s, 1);
        free(s);
    }
    if (co.mode)
        setenv("WARPSIM_MODE", co.mode, 1);
    if (json)
        setenv("WARPSIM_STATS", json, 1);
    const char *ld = getenv("LD_LIBRARY_PATH");
    size_t ldn = strlen(libdir) + (ld ? strlen(ld) : 0) + 2;
    char *ldp = malloc(ldn);
    if (!ldp)
        return CLI_USAGE;
    snprintf(ldp, ldn, "%s%s%s", libdir, ld && *ld ? ":" : "", ld && *ld ? ld : "");
    setenv("LD_LIBRARY_PATH", ldp, 1);
    free(ldp);

    char rpath[] = "/tmp/warpsim-exec-XXXXXX";
    int rfd = mkstemp(rpath);
    if (rfd < 0) {
        fprintf(stderr, "%s: temporary report file: %s\n", a.cmd, strerror(errno));
        return CLI_USAGE;
    }
    close(rfd);
    setenv("WARPSIM_REPORT", rpath, 1);
    if (all)
        setenv("WARPSIM_REPORT_ALL", "1", 1);

    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "%s: fork: %s\n", a.cmd, strerror(errno));
        unlink(rpath);
        return CLI_USAGE;
    }
    if (pid == 0) {
        execvp(argv[a.i], argv + a.i);
        fprintf(stderr, "%s: %s: %s\n", a.cmd, argv[a.i], strerror(errno));
        _exit(127);
    }
    int st = 0;
    cli_forward_signals((long)pid);
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    cli_restore_signals();
    int prc = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1;
    if (WIFSIGNALED(st))
        fprintf(stderr, "%s: %s died of signal %d\n", a.cmd, argv[a.i], WTERMSIG(st));
    if (print_file(rpath, report ? stdout : NULL) && prc != 127 && !WIFSIGNALED(st))
        fprintf(stderr, "%s: %s did not use warpsim's libcudart (no report): build it with "
                        "nvcc -cudart shared (nvcc's default links the CUDA runtime "
                        "statically)\n", a.cmd, argv[a.i]);
    unlink(rpath);
    return prc;
}
