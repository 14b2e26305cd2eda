// generated/constructs/<provider>/<file>.ts: CDKTF construct classes in CDKTF's binding shape
// (see the cdktf-bindings reference, §3): a Config interface extending TerraformMetaArguments;
// a class with `tfResourceType`, `generateConfigForImport`, a token getter per attribute,
// setters, `reset<X>`, `<x>Input`, `put<X>` for blocks and nested objects; one typed
// `…OutputReference` (and `…List`) class per nested object, so nested outputs are referenced
// as `vpcs.vpcs.get(0).peeringConnections.get(0).id`, and nested configuration is set as
// `db.timeouts.create = "30m"`. The classes stay thin: each member is a line or two over the
// runtime (constructs/runtime/), and the type's model (an attribute table) drives synthesis and
// validation at run time.
import type { AttributeModel, CtyType, NestedBlockModel, TypeModel } from "../language/schema/model-types.js";
import { attributesInterfaceName, memberTypeName } from "./emit-types.js";
import { ctyType } from "./model.js";
import { camelCase, fileName, pascalCase } from "./names.js";
import { xt, type SchemaDocument, type SchemaNode } from "./schema-source.js";

// Members of CDKTF's base classes that an attribute getter must not shadow.
const RESERVED = new Set([
  "count", "provider", "lifecycle", "dependsOn", "forEach", "node", "fqn", "friendlyUniqueId", "connection",
  "provisioners", "alias", "terraformResourceType", "terraformMetaArguments", "terraformGeneratorMetadata",
  "cdktfStack", "rawOverrides", "importFrom", "moveTo", "moveToId", "moveFromId", "addOverride", "toString",
]);
// Members of `ComplexObject` and of the runtime's `ObjectReference` that a nested field getter
// must not shadow.
const RESERVED_NESTED = new Set([
  "fqn", "resolve", "toString", "creationStack", "terraformResource", "terraformAttribute",
  "complexObjectIsFromSet", "complexObjectIndex", "internalValue", "computeFqn",
  "slot", "readInput", "writeInput", "inputSlot", "writableSlot",
]);

export function constructPath(doc: SchemaDocument): string {
  return `constructs/${doc.provider}/${fileName(doc.root.type, doc.provider, doc.root.kind)}.ts`;
}

/** A nested object reachable from the type's root, with the class names that reference it. */
interface ReferenceClass {
  /** `ServiceTimeouts` → `ServiceTimeoutsOutputReference`, `ServiceTimeoutsList` */
  base: string;
  node: SchemaNode;
  /** Whether a `…List` class is needed too (the object is an element of a list or set). */
  list: boolean;
  /** Whether the object is configuration (settable fields), not only computed by the provider. */
  input: boolean;
}

/** What the members of one class need to know while they are emitted. */
interface Emit {
  /** The class (or nested interface) name that enum unions and nested names start with. */
  owner: string;
  reference: (name: string, node: SchemaNode, list: boolean, input: boolean) => string;
  cdktf: Set<string>;
  runtime: Set<string>;
}

export function emitConstruct(doc: SchemaDocument, model: TypeModel, version: string): string {
  const typesFile = fileName(doc.root.type, doc.provider, doc.root.kind);
  const className = model.className;
  const iface = attributesInterfaceName(doc);
  const isProvider = model.kind === "provider";
  const base = model.kind === "resource" ? "TerraformResource" : model.kind === "data" ? "TerraformDataSource" : "TerraformProvider";
  const references: ReferenceClass[] = [];
  const cdktf = new Set<string>([base]);
  const runtime = new Set<string>();

  const body: string[] = [];
  const configName = `${className}Config`;
  if (isProvider) {
    body.push(`export interface ${configName} extends types.${iface} {`);
    body.push("  /** Alias of this provider configuration, for resources that select it with `provider`. */");
    body.push("  readonly alias?: string;");
    body.push("}");
  } else {
    cdktf.add("type TerraformMetaArguments");
    body.push(`export interface ${configName} extends TerraformMetaArguments, types.${iface} {}`);
  }
  body.push("");
  if (doc.schema.description) {
    body.push(docComment(`${doc.schema.description}\n\nTerraform ${model.kind === "data" ? "data source" : model.kind} \`${model.type}\`.`, ""));
  }
  body.push(`export class ${className} extends ${base} {`);
  body.push(`  public static readonly tfResourceType = "${model.type}";`);
  body.push("");
  if (model.kind === "resource") {
    cdktf.add("ImportableResource").add("type TerraformProvider as TerraformProviderType");
    body.push("  /**");
    body.push("   * An `import` block for an existing resource without a configuration of its own: with");
    body.push("   * `terraform plan -generate-config-out=FILE` Terraform writes that configuration.");
    body.push("   */");
    body.push("  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: TerraformProviderType): ImportableResource {");
    body.push(`    return new ImportableResource(scope, importToId, { terraformResourceType: "${model.type}", importId: importFromId, provider });`);
    body.push("  }");
    body.push("");
  }
  body.push(`  private readonly attrs: types.${attributesInterfacePlaceholder};`);
  if (isProvider) {
    // TerraformProvider's own `alias` accessors store nothing: every provider binding keeps it.
    body.push("  private _alias?: string;");
    body.push("");
    body.push("  /** Alias of this provider configuration (`provider = <type>.<alias>` in resources). */");
    body.push("  public override get alias(): string | undefined {");
    body.push("    return this._alias;");
    body.push("  }");
    body.push("  public override set alias(value: string | undefined) {");
    body.push("    this._alias = value;");
    body.push("  }");
    body.push("  public resetAlias(): void {");
    body.push("    this._alias = undefined;");
    body.push("  }");
    body.push("  /** The value set in the configuration. */");
    body.push("  public get aliasInput(): string | undefined {");
    body.push("    return this._alias;");
    body.push("  }");
  }
  body.push("");
  const optionalConfig = isProvider || !Object.values(model.block.attributes).some((a) => a.required);
  body.push(`  constructor(scope: Construct, id: string, config: ${configName}${optionalConfig ? " = {}" : ""}) {`);
  body.push("    super(scope, id, {");
  body.push(`      terraformResourceType: "${model.type}",`);
  body.push(`      terraformGeneratorMetadata: { providerName: "${model.provider}", providerVersion: "${version}" },`);
  if (isProvider) {
    body.push(`      terraformProviderSource: "schemaform/${model.provider}",`);
  } else {
    for (const meta of ["provider", "dependsOn", "count", "lifecycle", "provisioners", "connection", "forEach"]) body.push(`      ${meta}: config.${meta},`);
  }
  body.push("    });");
  if (isProvider) body.push("    this.alias = config.alias;");
  body.push(
    "    const { " +
      (isProvider ? "alias: _alias" : "provider: _p, dependsOn: _d, count: _c, lifecycle: _l, provisioners: _pr, connection: _co, forEach: _f") +
      ", ...attributes } = config;",
  );
  body.push("    this.attrs = { ...attributes };");
  body.push("    addSchemaValidation(this, model, () => this.attrs);");
  if (isProvider) body.push("    lockProviderPackage(this);");
  body.push("  }");

  const emit: Emit = {
    owner: className,
    reference: (name, node, list, input) => {
      const ref = { base: memberTypeName(className, name), node, list, input };
      references.push(ref);
      return ref.base;
    },
    cdktf,
    runtime,
  };
  for (const attribute of Object.values(model.block.attributes)) {
    const schema = doc.schema.properties[attribute.name] as SchemaNode;
    body.push(...attributeMembers(attribute, schema, isProvider, emit));
  }
  for (const nested of Object.values(model.block.blocks)) {
    const schema = doc.schema.properties[nested.name] as SchemaNode;
    body.push(...blockMembers(nested, emit.reference(nested.name, nested.nesting === "single" ? schema : schema.items, nested.nesting !== "single", true), runtime));
  }
  body.push("");
  body.push("  protected override synthesizeAttributes(): Record<string, unknown> {");
  body.push(isProvider ? "    return { ...toTerraform(model.block, this.attrs), alias: this.alias };" : "    return toTerraform(model.block, this.attrs);");
  body.push("  }");
  body.push("");
  body.push("  protected override synthesizeHclAttributes(): Record<string, unknown> {");
  body.push(
    isProvider
      ? '    return { ...toHclTerraform(model.block, this.attrs), ...(this.alias ? { alias: { value: this.alias, isBlock: false, type: "simple", storageClassType: "string" } } : {}) };'
      : "    return toHclTerraform(model.block, this.attrs);",
  );
  body.push("  }");
  body.push("}");

  // Reference classes, breadth first (a class's nested references are queued as it is emitted).
  const classes: string[] = [];
  for (let i = 0; i < references.length; i++) classes.push(...referenceClass(references[i]!, references, cdktf, runtime));
  if (references.some((r) => r.base === iface)) throw new Error(`${model.key}: a nested object would be named ${iface}`);
  const bases = references.map((r) => r.base);
  const duplicate = bases.find((b, i) => bases.indexOf(b) !== i);
  if (duplicate) throw new Error(`${model.key}: two nested objects would both be named ${duplicate}`);

  const lines: string[] = [];
  lines.push("// Generated by `npm run generate` from schemas/; do not edit.");
  lines.push(`import { ${sortImports(cdktf).join(", ")} } from "cdktf";`);
  lines.push('import type { Construct } from "constructs";');
  lines.push(`import { model } from "../../models/${model.key}.js";`);
  lines.push('import { toHclTerraform, toTerraform } from "../../../constructs/runtime/attributes.js";');
  if (runtime.size) lines.push(`import { ${sortImports(runtime).join(", ")} } from "../../../constructs/runtime/references.js";`);
  lines.push('import { addSchemaValidation } from "../../../constructs/runtime/validation.js";');
  if (isProvider) lines.push('import { lockProviderPackage } from "../../../constructs/runtime/lock-file.js";');
  lines.push(`import type * as types from "../../types/${model.provider}/${typesFile}.js";`);
  lines.push("");
  lines.push(`export type * from "../../types/${model.provider}/${typesFile}.js";`);
  lines.push("");
  lines.push(...body);
  if (classes.length) lines.push("", ...classes);
  lines.push("");
  const code = lines.filter((l, i, all) => !(l === "" && all[i - 1] === "")).join("\n");
  return code.split(attributesInterfacePlaceholder).join(iface);
}

const attributesInterfacePlaceholder = "__ATTRIBUTES__";

function sortImports(names: Set<string>): string[] {
  const key = (n: string) => n.replace(/^type /, "");
  return [...names].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function memberName(camel: string, reserved: Set<string>): string {
  return reserved.has(camel) ? `${camel}Attribute` : camel;
}

/** A nested object node of a property (object with properties, or array of such), if any. */
function nestedObject(prop: SchemaNode): { node: SchemaNode; list: boolean; set: boolean } | undefined {
  if (prop.type === "object" && prop.properties) return { node: prop, list: false, set: false };
  if (prop.type === "array" && prop.items?.type === "object" && prop.items.properties) return { node: prop.items, list: true, set: Boolean(prop.uniqueItems) };
  return undefined;
}

function attributeMembers(attribute: AttributeModel, schema: SchemaNode, isProvider: boolean, emit: Emit): string[] {
  const name = memberName(attribute.camel, RESERVED);
  const pascal = pascalCase(attribute.name);
  const settable = !(attribute.computed && !attribute.optional);
  const tsType = `types.${attributesInterfacePlaceholder}["${attribute.camel}"]`;
  const out: string[] = [""];
  const doc = docComment(attribute.description + (attribute.deprecated ? `\n\n@deprecated ${attribute.deprecated}` : ""), "  ");
  if (doc) out.push(doc);
  if (isProvider) {
    // Provider arguments cannot be referenced in Terraform: the getter returns the value set.
    out.push(`  public get ${name}(): ${tsType} | undefined {`);
    out.push(`    return this.attrs.${attribute.camel};`);
    out.push("  }");
  } else {
    const nested = nestedObject(schema);
    const [type, expression] = nested
      ? referenceGetter(attribute.name, emit.reference(attribute.name, nested.node, nested.list, settable), nested.list, nested.set, settable && `inputOf(this.attrs, "${attribute.camel}")`)
      : tokenGetter(attribute.name, attribute.type, enumType(schema, emit.owner, attribute.name, settable), emit);
    if (nested && settable) emit.runtime.add("inputOf");
    out.push(`  public get ${name}(): ${type} {`);
    out.push(`    return ${expression};`);
    out.push("  }");
  }
  if (!settable) return out;
  out.push(`  public set ${name}(value: ${tsType}) {`);
  out.push(`    this.attrs.${attribute.camel} = value;`);
  out.push("  }");
  if (!attribute.required) out.push(...resetMember(pascal, `delete this.attrs.${attribute.camel};`));
  out.push(...inputMember(attribute.camel, `this.attrs.${attribute.camel}`));
  if (attribute.nested) out.push(...putMember(pascal, `NonNullable<${tsType}>`, `this.attrs.${attribute.camel} = value;`));
  return out;
}

function blockMembers(nested: NestedBlockModel, referenceBase: string, runtime: Set<string>): string[] {
  const pascal = pascalCase(nested.name);
  const [type, expression] = referenceGetter(nested.name, referenceBase, nested.nesting !== "single", nested.nesting === "set", `inputOf(this.attrs, "${nested.camel}")`);
  runtime.add("inputOf");
  const doc = docComment(nested.description, "  ");
  return [
    "",
    ...(doc ? [doc] : []),
    `  public get ${memberName(nested.camel, RESERVED)}(): ${type} {`,
    `    return ${expression};`,
    "  }",
    ...putMember(pascal, `NonNullable<types.${attributesInterfacePlaceholder}["${nested.camel}"]>`, `this.attrs.${nested.camel} = value;`),
    ...resetMember(pascal, `delete this.attrs.${nested.camel};`),
    ...inputMember(nested.camel, `this.attrs.${nested.camel}`),
  ];
}

function resetMember(pascal: string, statement: string): string[] {
  return [`  public reset${pascal}(): void {`, `    ${statement}`, "  }"];
}

function putMember(pascal: string, type: string, statement: string): string[] {
  return [`  public put${pascal}(value: ${type}): void {`, `    ${statement}`, "  }"];
}

/** `<x>Input`: its type is the prop's, inferred (the declaration files spell it out). */
function inputMember(camel: string, expression: string): string[] {
  return ["  /** The value set in the configuration (not a reference). */", `  public get ${camel}Input() {`, `    return ${expression};`, "  }"];
}

/** `slot`: the expression of the reference's input slot, or false for a computed object. */
function referenceGetter(attribute: string, base: string, list: boolean, set: boolean, slot: string | false): [string, string] {
  const input = slot ? `, ${slot}` : "";
  return list ? [`${base}List`, `new ${base}List(this, "${attribute}", ${set}${input})`] : [`${base}OutputReference`, `new ${base}OutputReference(this, "${attribute}"${input})`];
}

/**
 * The type of an enum attribute's getter: the union the props take (`types.<Owner><Name>`, see
 * emit-types), so a reference flows into another construct's prop; a computed-only enum has no
 * props type and spells its literals out.
 */
function enumType(prop: SchemaNode, owner: string, name: string, settable: boolean): string | undefined {
  if (!prop.enum) return undefined;
  return settable ? `types.${memberTypeName(owner, name)}` : prop.enum.map((v: unknown) => JSON.stringify(v)).join(" | ");
}

/** The getter type and expression of a non-object attribute of a resource or of a nested object. */
function tokenGetter(attribute: string, type: CtyType, enumUnion: string | undefined, emit: Emit): [string, string] {
  const owner = "this";
  if (type === "string") return enumUnion ? [enumUnion, `${owner}.getStringAttribute("${attribute}") as ${enumUnion}`] : ["string", `${owner}.getStringAttribute("${attribute}")`];
  if (type === "number") return enumUnion ? [enumUnion, `${owner}.getNumberAttribute("${attribute}") as ${enumUnion}`] : ["number", `${owner}.getNumberAttribute("${attribute}")`];
  if (type === "bool") {
    emit.cdktf.add("type IResolvable");
    return ["IResolvable", `${owner}.getBooleanAttribute("${attribute}")`];
  }
  const [kind, element] = type;
  if (kind === "map") {
    if (element === "number") return ["Record<string, number>", `${owner}.getNumberMapAttribute("${attribute}")`];
    if (element === "bool") return ["Record<string, boolean>", `${owner}.getBooleanMapAttribute("${attribute}")`];
    // `.lookup(key)` as CDKTF's computed maps have, and assignable to another construct's map prop.
    emit.runtime.add("stringMap").add("type StringMapAttribute");
    return ["StringMapAttribute", `stringMap(${owner}, "${attribute}")`];
  }
  if (kind === "object") {
    emit.cdktf.add("type IResolvable");
    return ["IResolvable", `${owner}.interpolationForAttribute("${attribute}")`];
  }
  if (element === "number") return ["number[]", `${owner}.getNumberListAttribute("${attribute}")`];
  if (kind === "set") {
    emit.cdktf.add("Fn");
    return ["string[]", `Fn.tolist(${owner}.getListAttribute("${attribute}"))`];
  }
  return ["string[]", `${owner}.getListAttribute("${attribute}")`];
}

function referenceClass(ref: ReferenceClass, queue: ReferenceClass[], cdktf: Set<string>, runtime: Set<string>): string[] {
  const out: string[] = [];
  const fields: string[] = [];
  const emit: Emit = {
    owner: ref.base,
    reference: (name, node, list, input) => {
      const child = { base: memberTypeName(ref.base, name), node, list, input };
      queue.push(child);
      return child.base;
    },
    cdktf,
    runtime,
  };
  const propsType = `types.${ref.base}`;
  for (const [name, prop] of Object.entries<SchemaNode>(ref.node.properties ?? {})) {
    const ext = xt(prop);
    const camel = camelCase(name);
    const member = memberName(camel, RESERVED_NESTED);
    const pascal = pascalCase(name);
    const settable = ref.input && !prop.readOnly;
    const required = (ref.node.required ?? []).includes(name);
    let nested = nestedObject(prop);
    if (ext.block) nested = { node: ext.block === "single" ? prop : prop.items, list: ext.block !== "single", set: ext.block === "set" };
    const doc = docComment((prop.description ?? "") + (prop.deprecated ? `\n\n@deprecated ${ext.deprecation ?? "deprecated"}` : ""), "  ");
    fields.push("");
    if (doc) fields.push(doc);
    if (nested) {
      const base = emit.reference(name, nested.node, nested.list, settable);
      const [type, expression] = referenceGetter(name, base, nested.list, nested.set, settable && `this.inputSlot("${camel}")`);
      fields.push(`  public get ${member}(): ${type} {`, `    return ${expression};`, "  }");
      if (!settable) continue;
      fields.push(...putMember(pascal, `NonNullable<${propsType}["${camel}"]>`, `this.writeInput("${camel}", value);`));
      if (!required) fields.push(...resetMember(pascal, `this.writeInput("${camel}", undefined);`));
      fields.push(...inputMember(camel, `this.readInput("${camel}")`));
      continue;
    }
    const [type, expression] = tokenGetter(name, ctyType(prop), enumType(prop, ref.base, name, settable), emit);
    fields.push(`  public get ${member}(): ${type} {`, `    return ${expression};`, "  }");
    if (!settable) continue;
    fields.push(`  public set ${member}(value: ${propsType}["${camel}"]) {`, `    this.writeInput("${camel}", value);`, "  }");
    if (!required) fields.push(...resetMember(pascal, `this.writeInput("${camel}", undefined);`));
    fields.push(...inputMember(camel, `this.readInput("${camel}")`));
  }
  const description = ref.node.description ? `${ref.node.description}\n\n` : "";
  const what = ref.input ? "every getter returns a token; setters, `put<X>` and `reset<X>` change the configuration" : "every getter returns a token";
  out.push(docComment(`${description}A reference to \`${ref.base}\` values: ${what}.`, ""));
  runtime.add("ObjectReference");
  out.push(`export class ${ref.base}OutputReference extends ObjectReference${ref.input ? `<${propsType}>` : ""} {`);
  out.push(...fields.slice(1));
  out.push("}");
  out.push("");
  if (!ref.list) return out;
  runtime.add("ObjectListReference");
  out.push(`/** A list (or set) of \`${ref.base}\` values; \`get(i)\` references one element. */`);
  out.push(`export class ${ref.base}List extends ObjectListReference {`);
  out.push(`  public override get(index: number): ${ref.base}OutputReference {`);
  out.push(`    return new ${ref.base}OutputReference(this.terraformResource, this.terraformAttribute, this.element(index), this.wrapsSet, index);`);
  out.push("  }");
  out.push("}");
  out.push("");
  return out;
}

function docComment(text: string, indent: string): string {
  if (!text) return "";
  const body = text.replace(/\*\//g, "*\\/").split("\n").map((l) => `${indent} *${l ? ` ${l}` : ""}`);
  return [`${indent}/**`, ...body, `${indent} */`].join("\n");
}
