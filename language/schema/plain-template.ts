// The third common template after "${var.NAME}" and "${TYPE.NAME.ATTR}": literal text around
// plain references, "${local.prefix}-db-1", "/tsdb/${var.env}/1", "restore of ${tsdb_service.db.id}".
// Judged here from the text, with no reference object or syntax tree, when every interpolation is
// one the general path (checkString, known-values.ts, checkReference) finds fine and unknown: a
// declared input variable, a declared local value validate does not know, an attribute of a
// declared block of our types without count or for_each. Then the template is an unknown string
// and its references are edges of the dependency graph, as the general path makes them. Anything
// else returns false, and the general path judges (and reports) it.
import { repetitionOf, type Ctx } from "../config/context.js";
import type { BlockDecl } from "../config/declarations.js";
import { declaredLocals } from "../config/local-names.js";
import { knownIterator, unknownLocal } from "../config/known-values.js";
import { scope } from "../config/scope.js";
import { hasBindings } from "../expr/for-expressions.js";
import { nextInterpolation, NO_MORE, NOT_PLAIN } from "../expr/reference-template.js";
import { attributeIn, declaredType, plainVariable } from "./reference-fast-paths.js";
import { isIdentPart, isIdentStart } from "../expr/lexer.js";

const RBRACE = 125;
const DOT = 46;

/** The edges a template adds once it is judged fine (reused: the fast path allocates no list). */
const localTargets: string[] = [];
const blockTargets: BlockDecl[] = [];
let locals = 0;
let blocks = 0;

/** The local value judged fine and unknown last (templates of one module repeat theirs): no name sliced or looked up again. */
let lastLocal: { ctx: Ctx | null; name: string } = { ctx: null, name: "" };

/** Lets go of the last module's blocks and context once it is checked. */
export function forgetPlainTemplates(): void {
  lastLocal = { ctx: null, name: "" };
  localTargets.length = 0;
  blockTargets.length = 0;
}

/**
 * Whether `s` (a template string of a resource argument) is literal text and plain references that
 * are all fine and unknown; its dependency edges are added then. `s` must have more than one part:
 * a lone "${a.b}" is a whole reference, which the general path types against the argument.
 */
export function fastPlainTemplate(ctx: Ctx, s: string): boolean {
  if (ctx.namedReferenceSink === null || ctx.referenceSink === null) return false;
  // an iterator or a for expression's name may shadow a root, and a known one has a value
  if (scope.iterators.length > 0 || knownIterator() !== null || hasBindings()) return false;
  locals = 0;
  blocks = 0;
  let parts = 0;
  let literalFrom = 0;
  for (;;) {
    const at = nextInterpolation(s, literalFrom);
    if (at === NOT_PLAIN) return false;
    if (at === NO_MORE) break;
    if (at > literalFrom) parts++;
    const end = judgeInterpolation(ctx, s, at + 2);
    if (end < 0) return false;
    parts++;
    literalFrom = end + 1;
  }
  if (s.length > literalFrom) parts++;
  if (parts < 2) return false;
  const from = ctx.currentBlock;
  const graph = ctx.dependencies;
  // the general path makes its edges from the block being checked (none while another's region is read)
  if (from !== null && graph !== null) {
    for (let k = 0; k < locals; k++) graph.localEdge(from, localTargets[k]!);
    for (let k = 0; k < blocks; k++) graph.edge(from, blockTargets[k]!);
  }
  return true;
}

/**
 * The offset of the "}" closing the interpolation whose reference starts at `at`, when it is a
 * reference the fast path knows fine (its target noted), else -1.
 */
function judgeInterpolation(ctx: Ctx, s: string, at: number): number {
  const n = s.length;
  if (!isIdentStart(s.charCodeAt(at))) return -1;
  let j = at + 1;
  while (j < n && isIdentPart(s.charCodeAt(j))) j++;
  const rootEnd = j;
  // at most two attribute steps: var.NAME, local.NAME, TYPE.NAME.ATTR
  let step1 = -1;
  let step2 = -1;
  let steps = 0;
  while (s.charCodeAt(j) === DOT) {
    if (steps === 2 || !isIdentStart(s.charCodeAt(j + 1))) return -1;
    if (steps === 0) step1 = j + 1;
    else step2 = j + 1;
    steps++;
    j += 2;
    while (j < n && isIdentPart(s.charCodeAt(j))) j++;
  }
  if (s.charCodeAt(j) !== RBRACE || steps === 0) return -1;
  const rootLength = rootEnd - at;
  if (steps === 1) {
    if (rootLength === 3 && s.startsWith("var", at)) return plainVariable(ctx, s, step1, j) !== null ? j : -1;
    if (rootLength === 5 && s.startsWith("local", at)) {
      let name = lastLocal.name;
      if (lastLocal.ctx !== ctx || name.length !== j - step1 || !s.startsWith(name, step1)) {
        name = s.slice(step1, j);
        if (!declaredLocals(ctx).has(name) || !unknownLocal(ctx, name)) return -1;
        lastLocal = { ctx, name };
      }
      localTargets[locals++] = name;
      return j;
    }
    return -1;
  }
  if (!s.startsWith("tsdb_", at) && !s.startsWith("containerbackup_", at)) return -1;
  const declared = declaredType(ctx, "resource", s, at, rootEnd);
  if (declared === undefined) return -1;
  const decl = declared.names.find(s, step1, step2 - 1);
  if (decl === undefined || decl.model === undefined || repetitionOf(ctx, decl) !== null) return -1;
  if (attributeIn(decl.model.block, s, step2, j) === undefined) return -1;
  blockTargets[blocks++] = decl;
  return j;
}
