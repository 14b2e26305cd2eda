// terraform-provider-anchor: the Go anchor of bench/provider.mjs. A minimal native Terraform
// provider plugin (tfplugin6 over hashicorp/go-plugin, automatic mTLS, the handshake Terraform
// expects) with one resource, anchor_vpcs, shaped like tsdb_vpcs. It does no real work: records
// are JSON files in ANCHOR_DATA_DIR keyed by id, so that state written by one plugin process
// (apply) is read back by the next ones (plan). Values are decoded and encoded with go-cty's
// msgpack, as Terraform core does, so the per-RPC cost is what a native plugin pays.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"time"

	"anchor/tfplugin6"

	plugin "github.com/hashicorp/go-plugin"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"github.com/zclconf/go-cty/cty/msgpack"
	"google.golang.org/grpc"
)

const resourceType = "anchor_vpcs"

// The attributes of tsdb_vpcs (schemas/resource.tsdb_vpcs.schema.json), with the same
// required/optional/computed flags and the single nested block `timeouts`.
var (
	timeoutsType = cty.Object(map[string]cty.Type{"create": cty.String})
	vpcsType     = cty.Object(map[string]cty.Type{
		"id": cty.String, "cidr": cty.String, "region_code": cty.String, "name": cty.String,
		"vpcs_id": cty.Number, "created": cty.String, "updated": cty.String, "error_message": cty.String,
		"project_id": cty.String, "provisioned_id": cty.String, "status": cty.String,
		"timeouts": timeoutsType,
	})
	providerType = cty.Object(map[string]cty.Type{"project_id": cty.String})
	// Set by the provider on create: unknown in the plan, known after apply.
	computedOnly = []string{"id", "vpcs_id", "created", "updated", "error_message", "project_id", "provisioned_id", "status"}

	cidrPattern   = regexp.MustCompile(`^((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\.){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])/(3[0-2]|[12]?[0-9])$`)
	regionPattern = regexp.MustCompile(`^[a-z][a-z0-9-]*[0-9]$`)
)

func attribute(name string, ty string, required, optional, computed bool) *tfplugin6.Schema_Attribute {
	return &tfplugin6.Schema_Attribute{Name: name, Type: []byte(ty), Required: required, Optional: optional, Computed: computed}
}

func providerSchema() *tfplugin6.Schema {
	return &tfplugin6.Schema{Block: &tfplugin6.Schema_Block{Attributes: []*tfplugin6.Schema_Attribute{
		attribute("project_id", `"string"`, false, true, false),
	}}}
}

func vpcsSchema() *tfplugin6.Schema {
	attributes := []*tfplugin6.Schema_Attribute{
		attribute("cidr", `"string"`, true, false, false),
		attribute("region_code", `"string"`, true, false, false),
		attribute("name", `"string"`, false, true, true),
		attribute("vpcs_id", `"number"`, false, false, true),
	}
	for _, name := range computedOnly {
		if name != "vpcs_id" {
			attributes = append(attributes, attribute(name, `"string"`, false, false, true))
		}
	}
	timeouts := &tfplugin6.Schema_NestedBlock{
		TypeName: "timeouts",
		Nesting:  tfplugin6.Schema_NestedBlock_SINGLE,
		Block:    &tfplugin6.Schema_Block{Attributes: []*tfplugin6.Schema_Attribute{attribute("create", `"string"`, false, true, false)}},
	}
	return &tfplugin6.Schema{Block: &tfplugin6.Schema_Block{Attributes: attributes, BlockTypes: []*tfplugin6.Schema_NestedBlock{timeouts}}}
}

var capabilities = &tfplugin6.ServerCapabilities{PlanDestroy: true, GetProviderSchemaOptional: true}

func errorDiagnostic(summary string, err error) []*tfplugin6.Diagnostic {
	return []*tfplugin6.Diagnostic{{Severity: tfplugin6.Diagnostic_ERROR, Summary: summary, Detail: err.Error()}}
}

func decode(value *tfplugin6.DynamicValue, ty cty.Type) (cty.Value, error) {
	if value == nil || len(value.Msgpack) == 0 {
		return cty.NullVal(ty), nil
	}
	return msgpack.Unmarshal(value.Msgpack, ty)
}

func encode(value cty.Value, ty cty.Type) (*tfplugin6.DynamicValue, error) {
	bytes, err := msgpack.Marshal(value, ty)
	if err != nil {
		return nil, err
	}
	return &tfplugin6.DynamicValue{Msgpack: bytes}, nil
}

// record is what the store keeps of one VPC: every attribute but `timeouts`, which only
// lives in Terraform's state.
type record struct {
	ID            string `json:"id"`
	Cidr          string `json:"cidr"`
	RegionCode    string `json:"region_code"`
	Name          string `json:"name"`
	VpcsID        int64  `json:"vpcs_id"`
	Created       string `json:"created"`
	Updated       string `json:"updated"`
	ProjectID     string `json:"project_id"`
	ProvisionedID string `json:"provisioned_id"`
	Status        string `json:"status"`
}

func (r *record) value(timeouts cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"id": cty.StringVal(r.ID), "cidr": cty.StringVal(r.Cidr), "region_code": cty.StringVal(r.RegionCode),
		"name": cty.StringVal(r.Name), "vpcs_id": cty.NumberIntVal(r.VpcsID), "created": cty.StringVal(r.Created),
		"updated": cty.StringVal(r.Updated), "error_message": cty.StringVal(""), "project_id": cty.StringVal(r.ProjectID),
		"provisioned_id": cty.StringVal(r.ProvisionedID), "status": cty.StringVal(r.Status), "timeouts": timeouts,
	})
}

// store keeps one JSON file per VPC in a directory, and the last id handed out.
type store struct {
	directory string
	mutex     sync.Mutex
}

func (s *store) path(id string) string { return filepath.Join(s.directory, "vpc-"+id+".json") }

func (s *store) read(id string) (*record, error) {
	bytes, err := os.ReadFile(s.path(id))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var r record
	return &r, json.Unmarshal(bytes, &r)
}

func (s *store) write(r *record) error {
	bytes, err := json.Marshal(r)
	if err != nil {
		return err
	}
	temporary := s.path(r.ID) + ".tmp"
	if err := os.WriteFile(temporary, bytes, 0o600); err != nil {
		return err
	}
	return os.Rename(temporary, s.path(r.ID))
}

func (s *store) remove(id string) error {
	err := os.Remove(s.path(id))
	if os.IsNotExist(err) {
		return nil
	}
	return err
}

// nextID hands out increasing ids; one counter file, under the process's lock (Terraform runs
// one plugin process per apply).
func (s *store) nextID() (int64, error) {
	s.mutex.Lock()
	defer s.mutex.Unlock()
	counter := filepath.Join(s.directory, "last-id")
	last := int64(0)
	if bytes, err := os.ReadFile(counter); err == nil {
		last, _ = strconv.ParseInt(string(bytes), 10, 64)
	} else if !os.IsNotExist(err) {
		return 0, err
	}
	last++
	return last, os.WriteFile(counter, []byte(strconv.FormatInt(last, 10)), 0o600)
}

type provider struct {
	tfplugin6.UnimplementedProviderServer
	store     *store
	projectID string
}

func (p *provider) GetMetadata(context.Context, *tfplugin6.GetMetadata_Request) (*tfplugin6.GetMetadata_Response, error) {
	return &tfplugin6.GetMetadata_Response{
		ServerCapabilities: capabilities,
		Resources:          []*tfplugin6.GetMetadata_ResourceMetadata{{TypeName: resourceType}},
	}, nil
}

func (p *provider) GetProviderSchema(context.Context, *tfplugin6.GetProviderSchema_Request) (*tfplugin6.GetProviderSchema_Response, error) {
	return &tfplugin6.GetProviderSchema_Response{
		Provider:           providerSchema(),
		ResourceSchemas:    map[string]*tfplugin6.Schema{resourceType: vpcsSchema()},
		DataSourceSchemas:  map[string]*tfplugin6.Schema{},
		ServerCapabilities: capabilities,
	}, nil
}

func (p *provider) ValidateProviderConfig(_ context.Context, request *tfplugin6.ValidateProviderConfig_Request) (*tfplugin6.ValidateProviderConfig_Response, error) {
	if _, err := decode(request.Config, providerType); err != nil {
		return &tfplugin6.ValidateProviderConfig_Response{Diagnostics: errorDiagnostic("invalid provider configuration", err)}, nil
	}
	return &tfplugin6.ValidateProviderConfig_Response{}, nil
}

func (p *provider) ConfigureProvider(_ context.Context, request *tfplugin6.ConfigureProvider_Request) (*tfplugin6.ConfigureProvider_Response, error) {
	config, err := decode(request.Config, providerType)
	if err != nil {
		return &tfplugin6.ConfigureProvider_Response{Diagnostics: errorDiagnostic("invalid provider configuration", err)}, nil
	}
	p.projectID = "anchor-project"
	if project := config.GetAttr("project_id"); project.IsKnown() && !project.IsNull() {
		p.projectID = project.AsString()
	}
	return &tfplugin6.ConfigureProvider_Response{}, nil
}

// checkPattern reports a known string attribute that does not match, as tsdb_vpcs's validator does.
func checkPattern(config cty.Value, name string, pattern *regexp.Regexp, message string) []*tfplugin6.Diagnostic {
	value := config.GetAttr(name)
	if !value.IsKnown() || value.IsNull() || pattern.MatchString(value.AsString()) {
		return nil
	}
	return []*tfplugin6.Diagnostic{{
		Severity:  tfplugin6.Diagnostic_ERROR,
		Summary:   fmt.Sprintf("%s %s", name, message),
		Attribute: &tfplugin6.AttributePath{Steps: []*tfplugin6.AttributePath_Step{{Selector: &tfplugin6.AttributePath_Step_AttributeName{AttributeName: name}}}},
	}}
}

func (p *provider) ValidateResourceConfig(_ context.Context, request *tfplugin6.ValidateResourceConfig_Request) (*tfplugin6.ValidateResourceConfig_Response, error) {
	config, err := decode(request.Config, vpcsType)
	if err != nil {
		return &tfplugin6.ValidateResourceConfig_Response{Diagnostics: errorDiagnostic("invalid configuration", err)}, nil
	}
	diagnostics := checkPattern(config, "cidr", cidrPattern, "must be an IPv4 CIDR block such as 10.0.0.0/16")
	diagnostics = append(diagnostics, checkPattern(config, "region_code", regionPattern, "must be a region code such as us-east-1")...)
	return &tfplugin6.ValidateResourceConfig_Response{Diagnostics: diagnostics}, nil
}

func (p *provider) UpgradeResourceState(_ context.Context, request *tfplugin6.UpgradeResourceState_Request) (*tfplugin6.UpgradeResourceState_Response, error) {
	if request.RawState == nil || len(request.RawState.Json) == 0 {
		return &tfplugin6.UpgradeResourceState_Response{Diagnostics: errorDiagnostic("cannot upgrade state", fmt.Errorf("no JSON state"))}, nil
	}
	state, err := ctyjson.Unmarshal(request.RawState.Json, vpcsType)
	if err == nil {
		var upgraded *tfplugin6.DynamicValue
		if upgraded, err = encode(state, vpcsType); err == nil {
			return &tfplugin6.UpgradeResourceState_Response{UpgradedState: upgraded}, nil
		}
	}
	return &tfplugin6.UpgradeResourceState_Response{Diagnostics: errorDiagnostic("cannot upgrade state", err)}, nil
}

func (p *provider) ReadResource(_ context.Context, request *tfplugin6.ReadResource_Request) (*tfplugin6.ReadResource_Response, error) {
	state, err := decode(request.CurrentState, vpcsType)
	if err != nil {
		return &tfplugin6.ReadResource_Response{Diagnostics: errorDiagnostic("invalid state", err)}, nil
	}
	newState := cty.NullVal(vpcsType)
	if !state.IsNull() {
		found, err := p.store.read(state.GetAttr("id").AsString())
		if err != nil {
			return &tfplugin6.ReadResource_Response{Diagnostics: errorDiagnostic("cannot read the VPC", err)}, nil
		}
		if found != nil {
			newState = found.value(state.GetAttr("timeouts"))
		}
	}
	encoded, err := encode(newState, vpcsType)
	if err != nil {
		return &tfplugin6.ReadResource_Response{Diagnostics: errorDiagnostic("cannot encode the state", err)}, nil
	}
	return &tfplugin6.ReadResource_Response{NewState: encoded, Private: request.Private}, nil
}

func (p *provider) PlanResourceChange(_ context.Context, request *tfplugin6.PlanResourceChange_Request) (*tfplugin6.PlanResourceChange_Response, error) {
	prior, err := decode(request.PriorState, vpcsType)
	if err != nil {
		return &tfplugin6.PlanResourceChange_Response{Diagnostics: errorDiagnostic("invalid prior state", err)}, nil
	}
	proposed, err := decode(request.ProposedNewState, vpcsType)
	if err != nil {
		return &tfplugin6.PlanResourceChange_Response{Diagnostics: errorDiagnostic("invalid proposed state", err)}, nil
	}
	if proposed.IsNull() { // destroy
		return &tfplugin6.PlanResourceChange_Response{PlannedState: request.ProposedNewState, PlannedPrivate: request.PriorPrivate}, nil
	}
	attributes := proposed.AsValueMap()
	var replace []*tfplugin6.AttributePath
	if prior.IsNull() {
		for _, name := range computedOnly {
			attributes[name] = cty.UnknownVal(vpcsType.AttributeType(name))
		}
	} else {
		for _, name := range []string{"cidr", "region_code"} {
			if attributes[name].IsKnown() && !attributes[name].RawEquals(prior.GetAttr(name)) {
				replace = append(replace, &tfplugin6.AttributePath{Steps: []*tfplugin6.AttributePath_Step{{Selector: &tfplugin6.AttributePath_Step_AttributeName{AttributeName: name}}}})
			}
		}
		if len(replace) > 0 {
			for _, name := range computedOnly {
				attributes[name] = cty.UnknownVal(vpcsType.AttributeType(name))
			}
		} else if !attributes["name"].RawEquals(prior.GetAttr("name")) {
			attributes["updated"] = cty.UnknownVal(cty.String)
		}
	}
	if attributes["name"].IsNull() {
		attributes["name"] = cty.UnknownVal(cty.String)
	}
	planned, err := encode(cty.ObjectVal(attributes), vpcsType)
	if err != nil {
		return &tfplugin6.PlanResourceChange_Response{Diagnostics: errorDiagnostic("cannot encode the plan", err)}, nil
	}
	return &tfplugin6.PlanResourceChange_Response{PlannedState: planned, RequiresReplace: replace, PlannedPrivate: request.PriorPrivate}, nil
}

func (p *provider) ApplyResourceChange(_ context.Context, request *tfplugin6.ApplyResourceChange_Request) (*tfplugin6.ApplyResourceChange_Response, error) {
	fail := func(summary string, err error) (*tfplugin6.ApplyResourceChange_Response, error) {
		return &tfplugin6.ApplyResourceChange_Response{Diagnostics: errorDiagnostic(summary, err)}, nil
	}
	prior, err := decode(request.PriorState, vpcsType)
	if err != nil {
		return fail("invalid prior state", err)
	}
	planned, err := decode(request.PlannedState, vpcsType)
	if err != nil {
		return fail("invalid planned state", err)
	}
	if planned.IsNull() { // destroy
		if err := p.store.remove(prior.GetAttr("id").AsString()); err != nil {
			return fail("cannot delete the VPC", err)
		}
		return &tfplugin6.ApplyResourceChange_Response{NewState: request.PlannedState}, nil
	}
	now := time.Now().UTC().Format(time.RFC3339)
	var r *record
	if prior.IsNull() {
		id, err := p.store.nextID()
		if err != nil {
			return fail("cannot create the VPC", err)
		}
		r = &record{
			ID: strconv.FormatInt(id, 10), VpcsID: id, Cidr: planned.GetAttr("cidr").AsString(),
			RegionCode: planned.GetAttr("region_code").AsString(), Created: now, ProjectID: p.projectID,
			ProvisionedID: fmt.Sprintf("vpc-%08x", id), Status: "CREATED",
		}
		if name := planned.GetAttr("name"); name.IsKnown() && !name.IsNull() {
			r.Name = name.AsString()
		} else {
			r.Name = fmt.Sprintf("vpc-%05d", id)
		}
	} else {
		if r, err = p.store.read(prior.GetAttr("id").AsString()); err != nil || r == nil {
			return fail("cannot read the VPC", fmt.Errorf("VPC %s: %v", prior.GetAttr("id").AsString(), err))
		}
		r.Name = planned.GetAttr("name").AsString()
	}
	r.Updated = now
	if err := p.store.write(r); err != nil {
		return fail("cannot write the VPC", err)
	}
	newState, err := encode(r.value(planned.GetAttr("timeouts")), vpcsType)
	if err != nil {
		return fail("cannot encode the state", err)
	}
	return &tfplugin6.ApplyResourceChange_Response{NewState: newState, Private: request.PlannedPrivate}, nil
}

func (p *provider) StopProvider(context.Context, *tfplugin6.StopProvider_Request) (*tfplugin6.StopProvider_Response, error) {
	return &tfplugin6.StopProvider_Response{}, nil
}

// providerPlugin hands go-plugin the gRPC service; net/rpc (protocol 4 and older) is not served.
type providerPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	server *provider
}

func (p *providerPlugin) GRPCServer(_ *plugin.GRPCBroker, server *grpc.Server) error {
	tfplugin6.RegisterProviderServer(server, p.server)
	return nil
}

func (p *providerPlugin) GRPCClient(context.Context, *plugin.GRPCBroker, *grpc.ClientConn) (interface{}, error) {
	return nil, fmt.Errorf("terraform-provider-anchor is a plugin, not a client")
}

func main() {
	directory := os.Getenv("ANCHOR_DATA_DIR")
	if directory == "" {
		fmt.Fprintln(os.Stderr, "terraform-provider-anchor: set ANCHOR_DATA_DIR to the directory that keeps its VPCs")
		os.Exit(1)
	}
	if err := os.MkdirAll(directory, 0o700); err != nil {
		fmt.Fprintln(os.Stderr, "terraform-provider-anchor:", err)
		os.Exit(1)
	}
	server := &provider{store: &store{directory: directory}}
	plugin.Serve(&plugin.ServeConfig{
		// Terraform's handshake: its magic cookie, protocol 6 only.
		HandshakeConfig: plugin.HandshakeConfig{
			ProtocolVersion:  6,
			MagicCookieKey:   "TF_PLUGIN_MAGIC_COOKIE",
			MagicCookieValue: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
		},
		VersionedPlugins: map[int]plugin.PluginSet{6: {"provider": &providerPlugin{server: server}}},
		GRPCServer:       plugin.DefaultGRPCServer,
	})
}
