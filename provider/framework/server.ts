// ProviderServer: the generic protocol logic of every tfplugin6 RPC, built from a provider
// definition. It works on decoded protobuf objects (snake_case fields) and leaves gRPC and
// protobuf bytes to the transport (rpc.ts binds the two).
import { type Body, decodeMsgpack, decodeValue, encodeJsonState, encodeMsgpack, encodeValue, fromJsonState } from "../codec.js";
import { bytesOf } from "../protocol/wire.js";
import { type ProviderSchema, type SchemaBlock, type TypeSchema, providerSchemaOf } from "../schema.js";
import {
  type Diagnostic,
  SEVERITY_WARNING,
  attributePath,
  errorDiagnostic,
  exceptionDiagnostic,
  issueDiagnostic,
  redact,
} from "./diagnostics.js";
import { planChange } from "./plan.js";
import { functionsProto, providerSchemaProto } from "./schema-proto.js";
import { settleApplied, settleDataSource, settleRead } from "./state.js";
import { configuredCreateBeforeDestroy, terraformDirectory } from "./configured-lifecycle.js";
import { terraformIsApplying, terraformIsDestroying } from "./terraform-command.js";
import type { CallContext, DataSourceHandler, DeletionRefusal, EphemeralPrivate, EphemeralResourceHandler, Issue, PlanTypeModel, ProviderDefinition, ResourceHandler } from "./types.js";
import { FunctionError, HandlerError } from "./types.js";
import { collectSecrets, hasSecrets, hasWriteOnly, knownBody, nullWriteOnly, validationBody, withWriteOnly } from "./values.js";

// Request shapes, as protocol/wire.ts decodes them (only the fields we read).
interface DynamicValue {
  msgpack?: Uint8Array;
  json?: Uint8Array;
}
type Msg = Record<string, unknown>;

const CAPABILITIES = { plan_destroy: true, get_provider_schema_optional: true, move_resource_state: false };
const utf8 = new TextDecoder();

/** What a server knows about the Terraform it serves. */
export interface ConnectionOptions {
  /** Terraform's process id (default: our parent; a resident server names it per connection). */
  terraformPid?: number;
}

export class ProviderServer<Client = unknown> {
  readonly schema: ProviderSchema;
  private client: Client | undefined;
  private configured = false;
  /** Sensitive provider settings (keys, tokens): redacted from every later message. */
  private providerSecrets = new Set<string>();
  private readonly stop = new AbortController();
  private readonly models = new Map<string, Promise<PlanTypeModel | undefined>>();
  private schemaResponse: Msg | undefined;

  constructor(
    private readonly definition: ProviderDefinition<Client>,
    private readonly connection: ConnectionOptions = {},
  ) {
    this.schema = providerSchemaOf(definition.schema);
  }

  // -------------------------------------------------------------------------------------------
  // schema and metadata

  getMetadata(): Msg {
    return {
      server_capabilities: CAPABILITIES,
      resources: Object.keys(this.definition.resources).map((type_name) => ({ type_name })),
      data_sources: Object.keys(this.definition.dataSources).map((type_name) => ({ type_name })),
      functions: Object.keys(this.schema.functions ?? {}).map((name) => ({ name })),
      ephemeral_resources: Object.keys(this.definition.ephemeralResources ?? {}).map((type_name) => ({ type_name })),
    };
  }

  // -------------------------------------------------------------------------------------------
  // ephemeral resources (Terraform 1.10+): results never reach state or plan; `private` is
  // JSON of the handler's EphemeralPrivate, held by Terraform for the run

  async validateEphemeralResourceConfig(request: Msg): Promise<Msg> {
    const typeName = request.type_name as string;
    const found = this.ephemeralType(typeName);
    if ("error" in found) return { diagnostics: [found.error] };
    const extra = found.handler.validate?.bind(found.handler);
    return { diagnostics: await this.validate(`ephemeral.${typeName}`, found.schema.block, (request.config as DynamicValue)?.msgpack, extra) };
  }

  async openEphemeralResource(request: Msg): Promise<Msg> {
    const typeName = request.type_name as string;
    const found = this.ephemeralType(typeName);
    if ("error" in found) return { diagnostics: [found.error] };
    const block = found.schema.block;
    const call = this.call(typeName, block);
    try {
      const config = decodeMsgpack((request.config as DynamicValue)?.msgpack, block) ?? {};
      call.secretsOf(config);
      const opened = await found.handler.open({ ...call.context(), config });
      call.secretsOf(opened.result);
      return {
        result: { msgpack: encodeMsgpack(settleDataSource(config, opened.result, block), block) },
        private: encodePrivate(opened.private),
        ...(opened.renewAt ? { renew_at: timestamp(opened.renewAt) } : {}),
        diagnostics: call.diagnostics(),
      };
    } catch (error) {
      return { diagnostics: call.diagnostics(error, `Opening ${typeName}`) };
    }
  }

  async renewEphemeralResource(request: Msg): Promise<Msg> {
    const typeName = request.type_name as string;
    const found = this.ephemeralType(typeName);
    if ("error" in found) return { diagnostics: [found.error] };
    const call = this.call(typeName, found.schema.block);
    const kept = decodePrivate(request.private);
    if (!found.handler.renew) return { private: encodePrivate(kept) };
    try {
      const renewed = await found.handler.renew({ ...call.context(), private: kept });
      return { private: encodePrivate(renewed.private), ...(renewed.renewAt ? { renew_at: timestamp(renewed.renewAt) } : {}), diagnostics: call.diagnostics() };
    } catch (error) {
      return { diagnostics: call.diagnostics(error, `Renewing ${typeName}`) };
    }
  }

  async closeEphemeralResource(request: Msg): Promise<Msg> {
    const typeName = request.type_name as string;
    const found = this.ephemeralType(typeName);
    if ("error" in found) return { diagnostics: [found.error] };
    const call = this.call(typeName, found.schema.block);
    try {
      await found.handler.close?.({ ...call.context(), private: decodePrivate(request.private) });
      return { diagnostics: call.diagnostics() };
    } catch (error) {
      return { diagnostics: call.diagnostics(error, `Closing ${typeName}`) };
    }
  }

  private ephemeralType(typeName: string): { schema: TypeSchema; handler: EphemeralResourceHandler<Client> } | { error: Diagnostic } {
    const schema = this.schema.ephemeral_resource_schemas?.[typeName];
    const handler = this.definition.ephemeralResources?.[typeName];
    if (!schema || !handler) return { error: errorDiagnostic(`Unsupported ephemeral resource "${typeName}"`, `The ${this.definition.name} provider has no ephemeral resource type "${typeName}".`) };
    return { schema, handler };
  }

  // -------------------------------------------------------------------------------------------
  // provider functions (Terraform 1.8+)

  getFunctions(): Msg {
    return { functions: functionsProto(this.schema.functions ?? {}), diagnostics: [] };
  }

  callFunction(request: Msg): Msg {
    const name = request.name as string;
    const declared = this.schema.functions?.[name];
    const implementation = this.definition.functions?.[name];
    if (!declared || !implementation) return { error: { text: `The ${this.definition.name} provider has no function named "${name}".` } };
    const args = (request.arguments as DynamicValue[] | undefined) ?? [];
    const parameters = declared.parameters ?? [];
    try {
      const values = args.map((arg, i) => {
        const parameter = parameters[i] ?? declared.variadic_parameter;
        if (!parameter) throw new FunctionError(`too many arguments: the function takes ${parameters.length}`, i);
        const bytes = bytesOf(arg.msgpack);
        return bytes ? decodeValue(bytes, parameter.type) : null;
      });
      return { result: { msgpack: encodeValue(implementation(values), declared.return_type) } };
    } catch (error) {
      if (error instanceof FunctionError) return { error: { text: error.message, ...(error.argument !== undefined ? { function_argument: error.argument } : {}) } };
      // Never the arguments: one may be a password.
      return { error: { text: `the ${name} function failed unexpectedly (${error instanceof Error ? error.name : "error"})` } };
    }
  }

  getProviderSchema(): Msg {
    this.schemaResponse ??= { ...providerSchemaProto(this.schema), server_capabilities: CAPABILITIES, diagnostics: [] };
    return this.schemaResponse;
  }

  // -------------------------------------------------------------------------------------------
  // validation

  async validateProviderConfig(request: Msg): Promise<Msg> {
    const block = this.schema.provider.block;
    return { diagnostics: await this.validate(`provider.${this.definition.name}`, block, (request.config as DynamicValue)?.msgpack) };
  }

  async validateResourceConfig(request: Msg): Promise<Msg> {
    const typeName = request.type_name as string;
    const found = this.resourceType(typeName);
    if ("error" in found) return { diagnostics: [found.error] };
    const extra = found.handler.validate?.bind(found.handler);
    return { diagnostics: await this.validate(`resource.${typeName}`, found.schema.block, (request.config as DynamicValue)?.msgpack, extra) };
  }

  async validateDataResourceConfig(request: Msg): Promise<Msg> {
    const typeName = request.type_name as string;
    const found = this.dataSourceType(typeName);
    if ("error" in found) return { diagnostics: [found.error] };
    const extra = found.handler.validate?.bind(found.handler);
    return { diagnostics: await this.validate(`data.${typeName}`, found.schema.block, (request.config as DynamicValue)?.msgpack, extra) };
  }

  private async validate(key: string, block: SchemaBlock, msgpack: Uint8Array | undefined, extra?: (config: Body) => Issue[]): Promise<Diagnostic[]> {
    let config: Body | null = null;
    try {
      config = decodeMsgpack(msgpack, block);
      if (!config) return [];
      const secrets = collectSecrets(config, block);
      const issues = [...((await this.definition.validate?.(key, validationBody(config, block))) ?? []), ...(extra?.(config) ?? [])];
      return issues.map((issue) => issueDiagnostic(issue, block, secrets));
    } catch (error) {
      return [exceptionDiagnostic(error, `Validating ${key}`, block, collectSecrets(config, block))];
    }
  }

  // -------------------------------------------------------------------------------------------
  // provider configuration

  async configureProvider(request: Msg): Promise<Msg> {
    const block = this.schema.provider.block;
    let config: Body | null = null;
    try {
      config = decodeMsgpack((request.config as DynamicValue)?.msgpack, block) ?? {};
      this.providerSecrets = collectSecrets(config, block);
      this.client = await this.definition.configure(config, {
        terraformVersion: (request.terraform_version as string) ?? "",
        signal: this.stop.signal,
      });
      this.configured = true;
      // Terraform now spends a while building its plan graph before the first resource RPC:
      // load the types' models and validators meanwhile (they load on first use otherwise).
      setImmediate(() => this.loadTypes());
      return { diagnostics: [] };
    } catch (error) {
      return { diagnostics: [exceptionDiagnostic(error, `Configuring provider ${this.definition.name}`, block, this.providerSecrets)] };
    }
  }

  stopProvider(): Msg {
    // Handlers waiting on long operations watch this signal.
    this.stop.abort();
    return { Error: "" };
  }

  /**
   * The end of this server's connection (a resident process outlives it): stops what is
   * running and releases the client (the embedded platform's database).
   */
  async close(): Promise<void> {
    this.stop.abort();
    const client = this.client;
    this.client = undefined;
    this.configured = false;
    if (client !== undefined) await this.definition.close?.(client);
  }

  // -------------------------------------------------------------------------------------------
  // managed resources

  async upgradeResourceState(request: Msg): Promise<Msg> {
    const typeName = request.type_name as string;
    const found = this.resourceType(typeName);
    if ("error" in found) return { diagnostics: [found.error] };
    const { schema, handler } = found;
    const version = Number(request.version ?? 0);
    const raw = request.raw_state as { json?: Uint8Array; flatmap?: Record<string, string> } | undefined;
    const json = bytesOf(raw?.json);
    try {
      if (!json) {
        if (raw?.flatmap && Object.keys(raw.flatmap).length > 0) {
          return { diagnostics: [errorDiagnostic(`Cannot upgrade ${typeName} state`, "The state is in the legacy flatmap format, which this provider never wrote.")] };
        }
        return { upgraded_state: { msgpack: encodeMsgpack(null, schema.block) } };
      }
      if (version > schema.version) {
        return {
          diagnostics: [
            errorDiagnostic(
              `Cannot read ${typeName} state`,
              `The state was written by a newer version of the provider (schema version ${version}; this provider knows ${schema.version}). Upgrade the provider.`,
            ),
          ],
        };
      }
      let state = JSON.parse(utf8.decode(json)) as Record<string, unknown>;
      if (version < schema.version && handler.upgradeState) state = handler.upgradeState(version, state);
      // Without write-only attributes there is nothing to null: the state goes to msgpack directly.
      if (!hasWriteOnly(schema.block)) return { upgraded_state: { msgpack: encodeJsonState(state, schema.block) } };
      const body = nullWriteOnly(fromJsonState(state, schema.block), schema.block);
      return { upgraded_state: { msgpack: encodeMsgpack(body, schema.block) } };
    } catch (error) {
      // No secrets to collect from a state we could not read; never echo the state itself.
      return { diagnostics: [exceptionDiagnostic(error, `Upgrading ${typeName} state`, schema.block, this.providerSecrets)] };
    }
  }

  async readResource(request: Msg): Promise<Msg> {
    const typeName = request.type_name as string;
    const found = this.resourceType(typeName);
    if ("error" in found) return { diagnostics: [found.error] };
    const { schema, handler } = found;
    const block = schema.block;
    const current = request.current_state as DynamicValue | undefined;
    const privateData = bytesOf(request.private);
    const call = this.call(typeName, block);
    try {
      const state = decodeMsgpack(current?.msgpack, block);
      call.secretsOf(state);
      if (!state) return { new_state: { msgpack: encodeMsgpack(null, block) } };
      const remote = await handler.read({ ...call.context(), state });
      // null: the object was deleted outside Terraform; Terraform drops it and plans a create.
      const newState = remote === null ? null : nullWriteOnly(settleRead(state, remote, block), block);
      return { new_state: { msgpack: encodeMsgpack(newState, block) }, private: privateData, diagnostics: call.diagnostics() };
    } catch (error) {
      return { new_state: current, private: privateData, diagnostics: call.diagnostics(error, `Reading ${typeName}`) };
    }
  }

  async planResourceChange(request: Msg): Promise<Msg> {
    const typeName = request.type_name as string;
    const found = this.resourceType(typeName);
    if ("error" in found) return { diagnostics: [found.error] };
    const { schema, handler } = found;
    const block = schema.block;
    const priorPrivate = bytesOf(request.prior_private);
    const call = this.call(typeName, block);
    try {
      const prior = decodeMsgpack((request.prior_state as DynamicValue)?.msgpack, block);
      const proposed = decodeMsgpack((request.proposed_new_state as DynamicValue)?.msgpack, block);
      const config = decodeMsgpack((request.config as DynamicValue)?.msgpack, block) ?? {};
      call.secretsOf(prior, proposed, config);
      // Destroy (the plan_destroy capability): nothing to plan, keep the private data flowing,
      // unless the object is protected: then the plan fails before anything is applied.
      if (proposed === null) {
        const refusal = prior && handler.deletionRefusal?.(prior);
        if (refusal) return { diagnostics: [refusalDiagnostic(refusal, "destroy", block)] };
        return { planned_state: { msgpack: encodeMsgpack(null, block) }, planned_private: priorPrivate };
      }

      const model = await this.model(`resource.${typeName}`);
      const plan = planChange({ prior, proposed, config, block, model: model?.block, changesOnUpdate: handler.changesOnUpdate });
      let planned = plan.planned;
      let diagnostics: Diagnostic[] | undefined;
      if (handler.modifyPlan) {
        try {
          const modified = await handler.modifyPlan({ ...call.context(), prior, config, planned, changed: plan.changed, requiresReplace: plan.requiresReplace });
          if (modified) planned = modified;
        } catch (error) {
          // A destroy starts with a plan of the whole configuration that is never applied. A
          // plan-time check failing there (on a resource about to be destroyed, or one that was
          // never created) would only make the destroy impossible: it is shown as a warning.
          if (!terraformIsDestroying(process.env, this.connection.terraformPid)) throw error;
          diagnostics = call.diagnostics(error, `Planning ${typeName}`).map((d) => ({ ...d, severity: SEVERITY_WARNING }));
        }
      }
      // A replacement destroys the object too: a protected one fails the plan.
      const refusal = prior && plan.requiresReplace.length > 0 ? handler.deletionRefusal?.(prior) : undefined;
      if (refusal) return { diagnostics: [refusalDiagnostic(refusal, "replace", block)] };
      planned = nullWriteOnly(planned, block)!;
      return {
        planned_state: { msgpack: encodeMsgpack(planned, block) },
        requires_replace: plan.requiresReplace.map((path) => attributePath(path, block)).filter((p) => p !== undefined),
        planned_private: priorPrivate,
        diagnostics: diagnostics ?? call.diagnostics(),
      };
    } catch (error) {
      return { diagnostics: call.diagnostics(error, `Planning ${typeName}`) };
    }
  }

  async applyResourceChange(request: Msg): Promise<Msg> {
    const typeName = request.type_name as string;
    const found = this.resourceType(typeName);
    if ("error" in found) return { diagnostics: [found.error] };
    const { schema, handler } = found;
    const block = schema.block;
    const plannedPrivate = bytesOf(request.planned_private);
    const encoded = (body: Body | null) => ({ msgpack: encodeMsgpack(body, block) });
    const call = this.call(typeName, block);
    let prior: Body | null;
    let planned: Body | null;
    let config: Body | null;
    try {
      prior = decodeMsgpack((request.prior_state as DynamicValue)?.msgpack, block);
      planned = decodeMsgpack((request.planned_state as DynamicValue)?.msgpack, block);
      config = decodeMsgpack((request.config as DynamicValue)?.msgpack, block);
      call.secretsOf(prior, planned, config);
    } catch (error) {
      return { diagnostics: call.diagnostics(error, `Applying ${typeName}`) };
    }

    if (planned === null) {
      if (prior === null) return { new_state: encoded(null) };
      try {
        await handler.delete({ ...call.context(), state: prior });
        return { new_state: encoded(null), diagnostics: call.diagnostics() };
      } catch (error) {
        // The object still exists: keep it in state.
        return { new_state: encoded(prior), diagnostics: call.diagnostics(error, `Deleting ${typeName}`) };
      }
    }

    const desired = knownBody(withWriteOnly(planned, config, block));
    try {
      const remote =
        prior === null
          ? await handler.create({ ...call.context(), planned, config: config ?? {}, desired })
          : await handler.update({ ...call.context(), prior, planned, config: config ?? {}, desired });
      const newState = nullWriteOnly(settleApplied(planned, remote, block), block);
      return { new_state: encoded(newState), private: plannedPrivate, diagnostics: call.diagnostics() };
    } catch (error) {
      const diagnostics = call.diagnostics(error, `${prior === null ? "Creating" : "Updating"} ${typeName}`);
      if (error instanceof HandlerError && error.state) {
        // The object exists although the operation failed: returning it with an error makes
        // Terraform keep it (tainted, so the next apply replaces it) instead of orphaning it.
        const partial = nullWriteOnly(settleApplied(planned, error.state, block), block);
        return { new_state: encoded(partial), private: plannedPrivate, diagnostics };
      }
      return { new_state: encoded(prior), private: plannedPrivate, diagnostics };
    }
  }

  async importResourceState(request: Msg): Promise<Msg> {
    const typeName = request.type_name as string;
    const found = this.resourceType(typeName);
    if ("error" in found) return { diagnostics: [found.error] };
    const { schema, handler } = found;
    const block = schema.block;
    const id = String(request.id ?? "");
    const call = this.call(typeName, block);
    try {
      const context = call.context();
      const remote = handler.importState ? await handler.importState({ ...context, id }) : await handler.read({ ...context, state: { id } });
      if (!remote) {
        const missing = errorDiagnostic("Cannot import non-existent remote object", `No ${typeName} with the import identifier "${redact(id, this.providerSecrets)}" exists.`);
        return { diagnostics: [...call.diagnostics(), missing] };
      }
      const state = nullWriteOnly(settleRead(null, remote, block), block);
      return { imported_resources: [{ type_name: typeName, state: { msgpack: encodeMsgpack(state, block) } }], diagnostics: call.diagnostics() };
    } catch (error) {
      return { diagnostics: call.diagnostics(error, `Importing ${typeName}`) };
    }
  }

  // -------------------------------------------------------------------------------------------
  // data sources

  async readDataSource(request: Msg): Promise<Msg> {
    const typeName = request.type_name as string;
    const found = this.dataSourceType(typeName);
    if ("error" in found) return { diagnostics: [found.error] };
    const { schema, handler } = found;
    const block = schema.block;
    const call = this.call(typeName, block);
    try {
      const config = decodeMsgpack((request.config as DynamicValue)?.msgpack, block) ?? {};
      call.secretsOf(config);
      const result = await handler.read({ ...call.context(), config });
      const state = nullWriteOnly(settleDataSource(config, result, block), block);
      return { state: { msgpack: encodeMsgpack(state, block) }, diagnostics: call.diagnostics() };
    } catch (error) {
      return { diagnostics: call.diagnostics(error, `Reading data source ${typeName}`) };
    }
  }

  // -------------------------------------------------------------------------------------------
  // helpers

  private readonly resourceTypes = new Map<string, { schema: TypeSchema; handler: ResourceHandler<Client> }>();
  private readonly dataSourceTypes = new Map<string, { schema: TypeSchema; handler: DataSourceHandler<Client> }>();

  private resourceType(typeName: string): { schema: TypeSchema; handler: ResourceHandler<Client> } | { error: Diagnostic } {
    const known = this.resourceTypes.get(typeName);
    if (known) return known;
    const schema = this.schema.resource_schemas[typeName];
    const handler = this.definition.resources[typeName];
    if (!schema || !handler) return { error: errorDiagnostic(`Unsupported resource type "${typeName}"`, `The ${this.definition.name} provider has no resource type "${typeName}".`) };
    const found = { schema, handler };
    this.resourceTypes.set(typeName, found);
    return found;
  }

  private dataSourceType(typeName: string): { schema: TypeSchema; handler: DataSourceHandler<Client> } | { error: Diagnostic } {
    const known = this.dataSourceTypes.get(typeName);
    if (known) return known;
    const schema = this.schema.data_source_schemas[typeName];
    const handler = this.definition.dataSources[typeName];
    if (!schema || !handler) return { error: errorDiagnostic(`Unsupported data source "${typeName}"`, `The ${this.definition.name} provider has no data source "${typeName}".`) };
    const found = { schema, handler };
    this.dataSourceTypes.set(typeName, found);
    return found;
  }

  /**
   * One handler call: its context (with the warnings sink handlers push to), the sensitive
   * values seen in its inputs, and its diagnostics (warnings, then the error if any).
   */
  private call(typeName: string, block: SchemaBlock) {
    const warnings: Issue[] = [];
    // The provider's secrets plus those of this call's inputs; copied only when the type has any.
    const providerSecrets = this.providerSecrets;
    let secrets: Set<string> | undefined;
    const collect = hasSecrets(block);
    return {
      context: (): CallContext<Client> => {
        if (!this.configured) {
          throw new HandlerError("Provider not configured", { detail: `Terraform did not configure the ${this.definition.name} provider before using it.` });
        }
        const terraform = this.connection.terraformPid;
        return {
          client: this.client as Client,
          typeName,
          signal: this.stop.signal,
          warnings,
          applying: () => terraformIsApplying(process.env, terraform),
          createsBeforeDestroying: async (config) => configuredCreateBeforeDestroy(await terraformDirectory(terraform), typeName, config),
        };
      },
      secretsOf: (...bodies: (Body | null)[]) => {
        if (!collect) return;
        secrets ??= new Set(providerSecrets);
        for (const body of bodies) collectSecrets(body, block, secrets);
      },
      diagnostics: (error?: unknown, action?: string): Diagnostic[] => {
        const redacted = secrets ?? providerSecrets;
        if (warnings.length === 0 && error === undefined) return [];
        const out = warnings.map((warning) => issueDiagnostic(warning, block, redacted));
        if (error !== undefined) out.push(exceptionDiagnostic(error, action ?? `Calling ${typeName}`, block, redacted));
        return out;
      },
    };
  }

  private loadTypes(): void {
    if (!this.definition.model) return;
    for (const type of Object.keys(this.definition.resources)) void this.model(`resource.${type}`).catch(() => {});
    for (const type of Object.keys(this.definition.dataSources)) void this.model(`data.${type}`).catch(() => {});
  }

  private model(key: string): Promise<PlanTypeModel | undefined> {
    let model = this.models.get(key);
    if (!model) {
      model = Promise.resolve(this.definition.model?.(key));
      this.models.set(key, model);
    }
    return model;
  }
}

/** A protected object's refusal as Terraform shows it: at the protecting attribute. */
function refusalDiagnostic(refusal: DeletionRefusal, action: "destroy" | "replace", block: SchemaBlock): Diagnostic {
  const why = action === "destroy" ? "This plan would destroy it." : "This change would replace it (destroy, then create).";
  return { ...errorDiagnostic(refusal.summary, `${why} ${refusal.detail}`), attribute: attributePath([refusal.attribute], block) };
}

function encodePrivate(value: EphemeralPrivate): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value));
}

function decodePrivate(bytes: unknown): EphemeralPrivate {
  const raw = bytesOf(bytes);
  return raw ? (JSON.parse(utf8.decode(raw)) as EphemeralPrivate) : {};
}

/** A google.protobuf.Timestamp. */
function timestamp(at: Date): { seconds: number; nanos: number } {
  const ms = at.getTime();
  return { seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1_000_000 };
}
