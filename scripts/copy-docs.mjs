#!/usr/bin/env node
// Run before `npm pack`/`npm publish`: the package ships the generated reference pages as
// docs/<provider>/..., the Terraform Registry layout that Terraform users and doc tools look
// for at a package's root. generated/docs/ stays their only source; docs/ is not committed.
import { cpSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
rmSync(join(root, "docs"), { recursive: true, force: true });
cpSync(join(root, "generated", "docs"), join(root, "docs"), { recursive: true });
