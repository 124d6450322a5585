#!/usr/bin/env python3
"""A model of QEMU 7.2's round-robin TCG loop under -icount with busy Linux vCPUs, to
see what bounds a vCPU's wait for its turn (docs/ab.md, "Turns").

The rules, as read in QEMU 7.2 (not its code): a vCPU's turn gets the instructions up
to the earliest virtual timer (icount_prepare_for_run); a turn that finds that
deadline passed runs the expired timers and gets nothing; running timers, or arming
a timer that becomes the earliest, sets exit_request on every vCPU; a vCPU whose
exit_request is set ends its turn, and the loop starts again from the next one; a
fired Arm timer has no deadline until its guest re-arms it, in its tick handler
(gt_recalc_timer); the kick timer every 100 ms ends the vCPU about to run. Guest:
every busy CPU ticks every 4 ms (HZ=250), on one grid or, with skew_tick=1, CPU n
n x 2 ms / nr_cpus later; a tick's handler takes HANDLER_NS, then the task spins.

Next to the guests' figures (docs/ab.md, "Turns") it is right about the old ticks and
about skew_tick with most busy sets, but it starves vCPU 1 of the busy pair 0,1 under
skew_tick, which the guest did not: the handler here ends at the re-arm, so it is
short of something.

usage: tests/qemu/icount-turns.py   prints, per case, each busy vCPU's longest wait
between two runs of its task (ms of virtual time, 2 s modelled).
"""
TICK_NS, KICK_NS, HANDLER_NS, NEVER = 4_000_000, 100_000_000, 20_000, 1 << 62


def longest_waits(busy, ncpu, skew, end_ns=2_000_000_000, kick_ns=37_000_000):
    """busy: the busy vCPUs; the others stay halted (tickless idle, no timer)."""
    off = [TICK_NS // 2 // ncpu * c if skew else 0 for c in range(ncpu)]
    timer = [off[c] + TICK_NS if c in busy else NEVER for c in range(ncpu)]
    irq, handler_left, exit_req = [False] * ncpu, [0] * ncpu, [False] * ncpu
    ran_until, wait = [0] * ncpu, [0] * ncpu
    st = {"now": 0, "kick": kick_ns, "cur": None}

    def deadline():
        return min(min(timer), st["kick"])

    def run_timers():  # qemu_clock_notify kicks every vCPU, then the timers run
        exit_req[:] = [True] * ncpu
        for c in range(ncpu):
            if timer[c] <= st["now"]:
                timer[c], irq[c] = NEVER, True
        if st["kick"] <= st["now"]:
            st["kick"] = st["now"] + KICK_NS
            if st["cur"] is not None:
                exit_req[st["cur"]] = True

    def turn(c, budget):
        if irq[c]:
            irq[c], handler_left[c] = False, HANDLER_NS
        if exit_req[c] or budget == 0:
            exit_req[c] = False
            return
        n = min(handler_left[c], budget)
        st["now"] += n
        budget -= n
        handler_left[c] -= n
        if n and not handler_left[c]:  # the handler re-arms the tick, maybe first
            nxt = (st["now"] - off[c]) // TICK_NS * TICK_NS + TICK_NS + off[c]
            first = nxt < deadline()
            timer[c] = nxt
            if first:
                exit_req[:] = [True] * ncpu
        if budget and not exit_req[c] and not handler_left[c]:
            wait[c] = max(wait[c], st["now"] - ran_until[c])
            st["now"] += budget
            ran_until[c] = st["now"]
        exit_req[c] = False

    cpu = 0
    while st["now"] < end_ns:
        if deadline() <= st["now"]:
            run_timers()
        cpu = 0 if cpu is None else cpu
        while cpu is not None and not exit_req[cpu]:
            st["cur"] = cpu
            budget = max(0, min(deadline() - st["now"], 2**31 - 1))
            if budget == 0:
                run_timers()
            if cpu in busy:
                turn(cpu, budget)
            cpu = cpu + 1 if cpu + 1 < ncpu else None
        st["cur"] = None
        if cpu is not None:
            exit_req[cpu] = False
    # a task that never ran again waited until the end
    return [max(wait[c], st["now"] - ran_until[c]) / 1e6 for c in busy]


if __name__ == "__main__":
    print("busy vCPUs (of 4)\tskew_tick\tlongest wait per busy vCPU, ms")
    for busy in ((0, 1), (0, 2), (1, 3), (0, 1, 2), (0, 1, 2, 3)):
        for skew in (0, 1):
            w = longest_waits(busy, 4, skew)
            print(f"{','.join(map(str, busy))}\t{skew}\t" + " ".join(f"{x:.1f}" for x in w))
