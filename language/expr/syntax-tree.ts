// The syntax tree of HCL's template and expression language, and what a parse yields: the
// references an expression makes, and the first syntax problem with Terraform's words.

export type Expr =
  /** `raw`: a number's source text (cty numbers are arbitrary-precision; a double may round it) */
  | { t: "lit"; v: string | number | boolean | null; raw?: string }
  | { t: "tpl"; parts: Expr[] }
  | { t: "var"; name: string }
  | { t: "attr"; of: Expr; name: string }
  | { t: "index"; of: Expr; key: Expr }
  | { t: "call"; name: string; args: Expr[]; expand: boolean }
  | { t: "un"; op: string; x: Expr }
  | { t: "bin"; op: string; l: Expr; r: Expr }
  | { t: "cond"; c: Expr; a: Expr; b: Expr }
  | { t: "tuple"; items: Expr[] }
  | { t: "object"; keys: Expr[]; values: Expr[] }
  /**
   * A for expression (`[for …]` a tuple, `{for …}` an object), or a `%{for}` directive (`join`: its
   * iterations' strings joined). `keyName` is the first of two names; `key` the object's key
   * expression; `group` the `...` after the value.
   */
  | { t: "for"; result: "tuple" | "object" | "join"; keyName: string | null; valueName: string; coll: Expr; key: Expr | null; value: Expr; cond: Expr | null; group: boolean }
  /** splats, and templates whose value is not modelled (strip markers): `checks` are evaluated for their errors only */
  | { t: "unknown"; checks?: ValueCheck[] };

/** A part of an unknown expression that validate still evaluates: its errors count, its value does not. */
export type ValueCheck = { kind: "evaluate"; e: Expr };

export interface SyntaxProblem {
  summary: string;
  detail: string;
  offset: number;
  /** where Terraform's range for it ends, when that is not the end of the token at `offset` */
  end?: number;
  /**
   * a range the detail names, as Terraform names it ("main.tf:2,8-20"): `detail` says "earlier"
   * instead; a reader that knows the file's name and lines writes `mention.detail(where)`
   */
  mention?: { start: number; end: number; detail: (where: string) => string };
}

export type TraversalStep = { kind: "attr"; name: string } | { kind: "index"; key: string | number | null } | { kind: "splat" };

/** A reference to another object: a name that is not a function, a literal or a for expression's own. */
export interface Reference {
  /** first name, e.g. "tsdb_service", "data", "var" */
  root: string;
  /** its attribute and index steps; an index computed by an expression is the last ({ key: null }) */
  steps: TraversalStep[];
  /** offsets in the decoded string */
  start: number;
  end: number;
  /** a negative number that indexes the reference, `[-1]`: HCL reads it as an index expression, not a step (the last step is then { key: null }) */
  negativeIndex?: number;
}

export type ParseResult =
  | {
      ok: true;
      expr: Expr;
      refs: Reference[];
      /** the expression's span when the template is one interpolation and nothing else */
      only: [number, number] | null;
    }
  | { ok: false; problem: SyntaxProblem };
