// The example CDKTF app (cdktf.json's `app`): `npx cdktf synth`, or `npx tsx examples/stack/main.ts`
// after `npm run build` (it imports `schemaform/tsdb` from the built package).
import { App } from "cdktf";
import { PlatformStack } from "./stack.js";

const app = new App();
new PlatformStack(app, "example");
app.synth();
