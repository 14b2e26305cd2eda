// A second local user, for tests of what the provider trusts on a machine shared with other
// users (CI runs as root, so the tests make one): a uniquely named system user without a home
// directory, removed again by the test (`remove`, in an afterAll).
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";

export interface LocalUser {
  name: string;
  uid: number;
  gid: number;
  /** Runs a command as this user (runuser), returning its stdout. */
  run(command: string, args: string[], options?: { cwd?: string }): string;
  remove(): void;
}

export function createLocalUser(): LocalUser {
  const name = `sf${randomBytes(4).toString("hex")}`;
  execFileSync("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name], { stdio: "pipe" });
  const id = (flag: string) => Number(execFileSync("id", [flag, name], { encoding: "utf8" }).trim());
  return {
    name,
    uid: id("-u"),
    gid: id("-g"),
    run: (command, args, options = {}) => execFileSync("runuser", ["-u", name, "--", command, ...args], { encoding: "utf8", cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"] }),
    remove: () => execFileSync("userdel", [name], { stdio: "pipe" }),
  };
}
