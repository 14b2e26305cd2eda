// The package root: the library API that is not a construct. Constructs live in the
// `schemaform/tsdb` and `schemaform/containerbackup` entry points so that each loads alone.
export { validateHclJson } from "../language/index.js";
export { validateBody, loadType } from "../language/schema/body.js";
export type { Issue, TypeModel } from "../language/schema/model-types.js";
