package tfdata

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers"
)

func TestMoveFromNullResource(t *testing.T) {
	p := New()
	if !p.GetProviderSchema().ServerCapabilities.MoveResourceState {
		t.Errorf("the provider does not announce MoveResourceState")
	}
	tests := []struct {
		name     string
		req      providers.MoveResourceStateRequest
		triggers cty.Value
		id       cty.Value
		wantErr  string
	}{
		{
			name: "triggers and id",
			req: providers.MoveResourceStateRequest{SourceProviderAddress: "registry.terraform.io/hashicorp/null", SourceTypeName: "null_resource",
				SourceStateJSON: []byte(`{"id":"4242","triggers":{"a":"1","b":"2"}}`), SourcePrivate: []byte("p"), TargetTypeName: "terraform_data"},
			triggers: cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("1"), "b": cty.StringVal("2")}),
			id:       cty.StringVal("4242"),
		},
		{
			name: "no triggers, OpenTofu's registry",
			req: providers.MoveResourceStateRequest{SourceProviderAddress: "registry.opentofu.org/hashicorp/null", SourceTypeName: "null_resource",
				SourceStateJSON: []byte(`{"id":"7","triggers":null}`), TargetTypeName: "terraform_data"},
			triggers: cty.NullVal(cty.DynamicPseudoType),
			id:       cty.StringVal("7"),
		},
		{
			name: "empty triggers",
			req: providers.MoveResourceStateRequest{SourceProviderAddress: "registry.terraform.io/hashicorp/null", SourceTypeName: "null_resource",
				SourceStateJSON: []byte(`{"id":"7","triggers":{}}`), TargetTypeName: "terraform_data"},
			triggers: cty.EmptyObjectVal,
			id:       cty.StringVal("7"),
		},
		{
			name: "another source type",
			req: providers.MoveResourceStateRequest{SourceProviderAddress: "registry.terraform.io/hashicorp/random", SourceTypeName: "random_id",
				SourceStateJSON: []byte(`{"id":"x"}`), TargetTypeName: "terraform_data"},
			wantErr: "terraform_data can only be moved from null_resource of the hashicorp/null provider, not from random_id of provider registry.terraform.io/hashicorp/random",
		},
		{
			name: "null_resource of another provider",
			req: providers.MoveResourceStateRequest{SourceProviderAddress: "example.com/acme/other", SourceTypeName: "null_resource",
				SourceStateJSON: []byte(`{"id":"x"}`), TargetTypeName: "terraform_data"},
			wantErr: "not from null_resource of provider example.com/acme/other",
		},
		{
			name: "unreadable object",
			req: providers.MoveResourceStateRequest{SourceProviderAddress: "registry.terraform.io/hashicorp/null", SourceTypeName: "null_resource",
				SourceStateJSON: []byte(`{"id":3,`), TargetTypeName: "terraform_data"},
			wantErr: "The stored null_resource object cannot be read",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp := p.MoveResourceState(tc.req)
			if tc.wantErr != "" {
				if !resp.Diagnostics.HasErrors() || !strings.Contains(resp.Diagnostics.Error(), tc.wantErr) {
					t.Fatalf("diagnostics %v, want %q", resp.Diagnostics, tc.wantErr)
				}
				return
			}
			if resp.Diagnostics.HasErrors() {
				t.Fatal(resp.Diagnostics.Error())
			}
			v := resp.TargetState
			if errs := v.Type().TestConformance(dataSchema().ImpliedType()); len(errs) > 0 {
				t.Fatalf("target state %#v does not conform: %v", v, errs)
			}
			if !v.GetAttr("triggers_replace").RawEquals(tc.triggers) || !v.GetAttr("id").RawEquals(tc.id) {
				t.Errorf("moved object %#v, want triggers_replace %#v and id %#v", v, tc.triggers, tc.id)
			}
			if !v.GetAttr("input").IsNull() || !v.GetAttr("output").IsNull() {
				t.Errorf("input/output not null: %#v", v)
			}
			if string(resp.TargetPrivate) != string(tc.req.SourcePrivate) {
				t.Errorf("private %q, want %q", resp.TargetPrivate, tc.req.SourcePrivate)
			}
		})
	}
}
