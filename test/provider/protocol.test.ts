// Field numbers of tfplugin6.8 that are easy to get wrong and fatal when wrong (Terraform
// silently reads another field). Checked against the descriptor the bundle embeds.
import { describe, expect, it } from "vitest";
import { protocolDescriptor } from "../../scripts/bundle-provider.mjs";
import { messageType, methodTypes } from "../../provider/protocol/messages.js";

const field = (type: string, name: string) => messageType(type).fields[name]?.id;

describe("tfplugin6.proto (6.8)", () => {
  it.each([
    ["tfplugin6.Schema.Attribute", "write_only", 11],
    ["tfplugin6.Schema.Attribute", "nested_type", 10],
    ["tfplugin6.Schema.Attribute", "type", 2],
    ["tfplugin6.Schema.Object", "nesting", 3],
    ["tfplugin6.ServerCapabilities", "plan_destroy", 1],
    ["tfplugin6.ServerCapabilities", "get_provider_schema_optional", 2],
    ["tfplugin6.ClientCapabilities", "write_only_attributes_allowed", 2],
    ["tfplugin6.Diagnostic", "attribute", 4],
    ["tfplugin6.AttributePath.Step", "element_key_string", 2],
    ["tfplugin6.AttributePath.Step", "element_key_int", 3],
    ["tfplugin6.ValidateProviderConfig.Response", "diagnostics", 2],
    ["tfplugin6.ValidateResourceConfig.Request", "client_capabilities", 3],
    ["tfplugin6.GetProviderSchema.Response", "server_capabilities", 6],
    ["tfplugin6.PlanResourceChange.Request", "client_capabilities", 7],
    ["tfplugin6.PlanResourceChange.Response", "requires_replace", 2],
    ["tfplugin6.PlanResourceChange.Response", "planned_private", 3],
    ["tfplugin6.ApplyResourceChange.Response", "diagnostics", 3],
    ["tfplugin6.ReadResource.Response", "private", 3],
    ["tfplugin6.ReadDataSource.Request", "client_capabilities", 4],
    ["tfplugin6.ImportResourceState.ImportedResource", "state", 2],
    ["tfplugin6.UpgradeResourceState.Request", "raw_state", 3],
    // provider functions (Terraform 1.8+)
    ["tfplugin6.GetProviderSchema.Response", "functions", 7],
    ["tfplugin6.GetMetadata.Response", "functions", 5],
    ["tfplugin6.Function", "parameters", 1],
    ["tfplugin6.Function", "variadic_parameter", 2],
    ["tfplugin6.Function", "return", 3],
    ["tfplugin6.Function", "summary", 4],
    ["tfplugin6.Function", "description", 5],
    ["tfplugin6.Function.Parameter", "allow_null_value", 3],
    ["tfplugin6.Function.Parameter", "allow_unknown_values", 4],
    ["tfplugin6.CallFunction.Request", "arguments", 2],
    ["tfplugin6.CallFunction.Response", "result", 1],
    ["tfplugin6.CallFunction.Response", "error", 2],
    ["tfplugin6.FunctionError", "function_argument", 2],
    // ephemeral resources (Terraform 1.10+)
    ["tfplugin6.GetProviderSchema.Response", "ephemeral_resource_schemas", 8],
    ["tfplugin6.GetMetadata.Response", "ephemeral_resources", 6],
    ["tfplugin6.ValidateEphemeralResourceConfig.Request", "config", 2],
    ["tfplugin6.OpenEphemeralResource.Request", "client_capabilities", 3],
    ["tfplugin6.OpenEphemeralResource.Response", "renew_at", 2],
    ["tfplugin6.OpenEphemeralResource.Response", "result", 3],
    ["tfplugin6.OpenEphemeralResource.Response", "private", 4],
    ["tfplugin6.RenewEphemeralResource.Request", "private", 2],
    ["tfplugin6.RenewEphemeralResource.Response", "renew_at", 2],
    ["tfplugin6.RenewEphemeralResource.Response", "private", 3],
    ["tfplugin6.CloseEphemeralResource.Request", "private", 2],
  ])("%s.%s = %i", (type, name, id) => {
    expect(field(type, name)).toBe(id);
  });

  it("has no client_capabilities on ApplyResourceChange (6.8)", () => {
    expect(field("tfplugin6.ApplyResourceChange.Request", "client_capabilities")).toBeUndefined();
  });

  it("resolves the provider RPCs and go-plugin's Shutdown, not streams", () => {
    expect(methodTypes("/tfplugin6.Provider/PlanResourceChange")?.request.fullName).toBe(".tfplugin6.PlanResourceChange.Request");
    expect(methodTypes("/plugin.GRPCController/Shutdown")?.response.fullName).toBe(".plugin.Empty");
    expect(methodTypes("/tfplugin6.Provider/Nope")).toBeUndefined();
  });

  it("is the same descriptor the bundle precompiles", async () => {
    const { protoDescriptor } = await import("../../provider/protocol/descriptor.js");
    expect(protocolDescriptor()).toEqual(protoDescriptor());
  });
});
