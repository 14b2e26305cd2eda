// The containerbackup provider: the generated schema, the shared validator, and the restore
// channel handler. `configure` opens the platform (embedded unless `endpoint` is set); `project`
// (or CONTAINERBACKUP_PROJECT) is the default project of channels that set none.
import schema from "../../generated/terraform/containerbackup.json" with { type: "json" };
import type { Labels } from "../../platform/types.js";
import type { Body, ProviderDefinition, ProviderSchemasDocument } from "../framework/types.js";
import { HandlerError } from "../framework/types.js";
import { generatedTypes } from "../generated-types.js";
import { nativeBindingLoader, preloadNativeAddon } from "../native.js";
import { bundledAgentCommand } from "../agent/command.js";
import type { ContainerbackupClient } from "../resources/common.js";
import { restoreChannel } from "../resources/restore-channel.js";
import { UNKNOWN } from "../codec.js";
import { checkServerAccess } from "./server-access.js";
import { setting } from "./settings.js";
import { providerFunctions } from "../functions/index.js";

export async function configureContainerbackup(config: Body, env: NodeJS.ProcessEnv = process.env): Promise<ContainerbackupClient> {
  const project = setting(config, "project", "CONTAINERBACKUP_PROJECT", env);
  const endpoint = setting(config, "endpoint", "CONTAINERBACKUP_ENDPOINT", env);
  const accessToken = setting(config, "access_token", "CONTAINERBACKUP_ACCESS_TOKEN", env);
  const labels = config.default_labels;
  if (labels === UNKNOWN || (labels && typeof labels === "object" && Object.values(labels).some((v) => v === UNKNOWN))) {
    throw new HandlerError("default_labels are not known yet", { path: ["default_labels"], detail: "Provider settings must be known when Terraform plans." });
  }
  const defaultLabels: Labels = labels && typeof labels === "object" && !Array.isArray(labels) ? { ...(labels as Labels) } : {};
  if (endpoint && !accessToken) {
    throw new HandlerError("Missing credentials", {
      detail: `The platform server at ${endpoint} needs an access token: set access_token or CONTAINERBACKUP_ACCESS_TOKEN.`,
    });
  }
  const { openPlatform } = await import("../../platform/client.js");
  const platform = openPlatform(endpoint ? { endpoint, credentials: { accessToken: accessToken! } } : { loadNativeBinding: nativeBindingLoader(), closeOnExit: true, agentCommand: bundledAgentCommand() });
  // The embedded platform opens on first use; its addon can load while Terraform plans its graph.
  if (!endpoint) setImmediate(preloadNativeAddon);
  else if (project) {
    await checkServerAccess({
      endpoint,
      project,
      credentialSettings: "access_token (CONTAINERBACKUP_ACCESS_TOKEN)",
      endpointSetting: "endpoint (CONTAINERBACKUP_ENDPOINT)",
      probe: () => platform.restoreChannels.resolveProject(project),
    });
  }
  return { platform, project, defaultLabels };
}

export const definition: ProviderDefinition<ContainerbackupClient> = {
  name: "containerbackup",
  // JSON imports widen literal types ("list" to string); the generator guarantees the shape.
  schema: schema as unknown as ProviderSchemasDocument,
  ...generatedTypes,
  configure: (config) => configureContainerbackup(config),
  close: (client) => client.platform.close(),
  resources: { containerbackup_restore_channel: restoreChannel },
  functions: providerFunctions("containerbackup"),
  dataSources: {},
};

export default definition;
