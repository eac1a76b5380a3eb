/* signals.c - SIGINT/SIGTERM during `warpsim run`: the first signal asks the simulator
 * to stop (ws_stop_request only stores a sig_atomic_t, so it is async-signal-safe); the
 * running launch ends at its next step, later launches do not run, the workload
 * returns and the CLI writes the statistics gathered so far, marked partial, then
 * exits with 128 + the signal. SA_RESETHAND: a second signal kills as usual. */
#include <signal.h>
#include <string.h>

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
