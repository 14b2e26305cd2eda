// Exiting when Terraform is gone. Terraform ends its plugins with GRPCController.Shutdown, but a
// Terraform that is killed (kill -9, the OOM killer, a CI runner timing out) calls nothing, and a
// plugin left behind would keep its socket and the embedded platform's SQLite database and WAL
// open indefinitely. Two signs tell us, neither needing anything from Terraform:
// - the parent: the kernel re-parents an orphan (to init or a subreaper) the moment its parent
//   dies, so a changed parent process id means Terraform is gone. Polled, because no platform
//   notifies a child of its parent's death portably (Linux's PR_SET_PDEATHSIG is not reachable
//   from Node); one getppid() per interval on an unref'd timer costs nothing measurable;
// - closed stdio: Terraform reads our stdout and stderr through pipes, so once it is gone a
//   write to either fails with EPIPE, which would otherwise surface as an uncaught error.
// Either way we leave through process.exit, so the 'exit' handlers run (the socket directory
// is removed, the platform database is closed).
import { log } from "../log.js";

/** How often the parent is checked: Terraform's death is noticed within this. */
export const PARENT_CHECK_MS = 1000;

export function exitWithParent(): void {
  let noticed = false;
  const gone = (reason: string) => {
    // Both signs may come, and the log line itself may fail with EPIPE again.
    if (noticed) return;
    noticed = true;
    log("warn", `exiting: ${reason}`);
    process.exit(0);
  };
  const parent = process.ppid;
  // Started by init itself (or with no parent to lose): there is nothing to watch.
  if (parent > 1) {
    const timer = setInterval(() => {
      if (process.ppid === parent) return;
      clearInterval(timer);
      gone(`the parent process ${parent} (Terraform) is gone`);
    }, PARENT_CHECK_MS);
    timer.unref();
  }
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") gone("Terraform closed its end of our output");
    });
  }
}
