/* signals.c - SIGINT/SIGTERM during `warpsim run` and `warpsim exec`. `run`: the first signal asks the simulator
 * to stop (ws_stop_request only stores a sig_atomic_t, so it is async-signal-safe); the
 * running launch ends at its next step, later launches do not run, the workload
 * returns and the CLI writes the statistics gathered so far, marked partial, then
 * exits with 128 + the signal. SA_RESETHAND: a second signal kills as usual. */
#include <signal.h>
#include <string.h>
#include <sys/types.h>

#include "cli/cli.h"
#include "gpu/sim.h"

static void on_signal(int sig)
{
    ws_stop_request(sig);
}

void cli_catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

void cli_restore_signals(void)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
}

/* `warpsim exec`: the program is the one that simulates. SIGINT from the terminal reaches
 * the whole foreground process group, so the program gets it anyway; SIGTERM may be sent
 * to warpsim alone (a batch system, kill): it is passed on. Either way warpsim waits for
 * the program, which writes its statistics so far (api.h), and then prints its report. */
static volatile sig_atomic_t child_pid;

static void forward_signal(int sig)
{
    if (child_pid > 0 && sig == SIGTERM)
        kill((pid_t)child_pid, sig);
}

void cli_forward_signals(long pid)
{
    child_pid = (sig_atomic_t)pid;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = forward_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}
