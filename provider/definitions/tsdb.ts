// The tsdb provider: the generated schema, the shared validator, and one handler per resource
// and data source. `configure` opens the platform (embedded unless `endpoint` is set) for the
// project given by `project_id` or TSDB_PROJECT_ID.
import schema from "../../generated/terraform/tsdb.json" with { type: "json" };
import type { PlatformCredentials } from "../../platform/client.js";
import type { Body, ProviderDefinition, ProviderSchemasDocument } from "../framework/types.js";
import { HandlerError } from "../framework/types.js";
import { generatedTypes } from "../generated-types.js";
import { nativeBindingLoader, preloadNativeAddon } from "../native.js";
import { bundledAgentCommand } from "../agent/command.js";
import type { EmbeddedPlatform } from "../../platform/embedded.js";
import type { TsdbClient } from "../resources/common.js";
import { connectorObjStore } from "../resources/connector-obj-store.js";
import { connectorSrcDb } from "../resources/connector-src-db.js";
import { dataProducts } from "../resources/data-products.js";
import { dataService } from "../resources/data-service.js";
import { dataVpcs } from "../resources/data-vpcs.js";
import { logExporter } from "../resources/log-exporter.js";
import { metricExporter } from "../resources/metric-exporter.js";
import { peeringConnection } from "../resources/peering-connection.js";
import { service } from "../resources/service.js";
import { vpcs } from "../resources/vpcs.js";
import { checkServerAccess } from "./server-access.js";
import { setting } from "./settings.js";
import { providerFunctions } from "../functions/index.js";
import { serviceCredentials } from "../resources/service-credentials.js";

/** Reads the provider configuration (with environment fallbacks) and opens the platform. */
export async function configureTsdb(config: Body, env: NodeJS.ProcessEnv = process.env): Promise<TsdbClient> {
  const projectId = setting(config, "project_id", "TSDB_PROJECT_ID", env);
  if (!projectId) {
    throw new HandlerError("Missing project_id", {
      path: ["project_id"],
      detail: 'The tsdb provider needs the project every resource belongs to: set project_id in the provider configuration, or the TSDB_PROJECT_ID environment variable.',
    });
  }
  const endpoint = setting(config, "endpoint", "TSDB_ENDPOINT", env);
  // Credentials come from the configuration when it sets any, else from the environment.
  const fromConfig = ["access_token", "access_key", "secret_key"].some((k) => typeof config[k] === "string" && config[k] !== "");
  const source = fromConfig ? {} : env;
  const accessToken = setting(config, "access_token", "TSDB_ACCESS_TOKEN", source);
  const accessKey = setting(config, "access_key", "TSDB_ACCESS_KEY", source);
  const secretKey = setting(config, "secret_key", "TSDB_SECRET_KEY", source);
  let credentials: PlatformCredentials | undefined;
  if (accessToken) credentials = { accessToken };
  else if (accessKey && secretKey) credentials = { accessKey, secretKey };
  else if (accessKey || secretKey) {
    throw new HandlerError("Incomplete credentials", {
      path: [accessKey ? "secret_key" : "access_key"],
      detail: "access_key and secret_key go together (or TSDB_ACCESS_KEY and TSDB_SECRET_KEY); or use access_token.",
    });
  }
  if (endpoint && !credentials) {
    throw new HandlerError("Missing credentials", {
      detail: `The platform server at ${endpoint} needs credentials: set access_token, or access_key and secret_key (or TSDB_ACCESS_TOKEN, TSDB_ACCESS_KEY and TSDB_SECRET_KEY).`,
    });
  }
  // Loaded only here, so that validate-only provider processes never open the platform.
  const { openPlatform } = await import("../../platform/client.js");
  const platform = openPlatform(endpoint ? { endpoint, credentials } : { loadNativeBinding: nativeBindingLoader(), closeOnExit: true, agentCommand: bundledAgentCommand() });
  // The embedded platform opens on first use; its addon can load while Terraform plans its graph.
  if (!endpoint) {
    setImmediate(preloadNativeAddon);
    // the data plane's agent starts while Terraform plans, not when the first create needs it
    setImmediate(() => (platform as EmbeddedPlatform).prepareDataPlane());
  } else {
    await checkServerAccess({
      endpoint,
      project: projectId,
      credentialSettings: "access_token, or access_key and secret_key (TSDB_ACCESS_TOKEN, TSDB_ACCESS_KEY, TSDB_SECRET_KEY)",
      endpointSetting: "endpoint (TSDB_ENDPOINT)",
      probe: () => platform.lookups.vpcs(projectId),
    });
  }
  return { platform, projectId };
}

export const definition: ProviderDefinition<TsdbClient> = {
  name: "tsdb",
  // JSON imports widen literal types ("list" to string); the generator guarantees the shape.
  schema: schema as unknown as ProviderSchemasDocument,
  ...generatedTypes,
  configure: (config) => configureTsdb(config),
  close: (client) => client.platform.close(),
  resources: {
    tsdb_service: service,
    tsdb_vpcs: vpcs,
    tsdb_peering_connection: peeringConnection,
    tsdb_connector_obj_store: connectorObjStore,
    tsdb_connector_src_db: connectorSrcDb,
    tsdb_log_exporter: logExporter,
    tsdb_metric_exporter: metricExporter,
  },
  ephemeralResources: { tsdb_service_credentials: serviceCredentials },
  functions: providerFunctions("tsdb"),
  dataSources: {
    tsdb_service: dataService,
    tsdb_products: dataProducts,
    tsdb_vpcs: dataVpcs,
  },
};

export default definition;
