package statefile

import "encoding/json"

// The structs below mirror the v4 format's JSON objects. Field order is the
// order Terraform writes; the writer relies on it (see write.go).

type stateV4 struct {
	Version          uint64                   `json:"version"`
	TerraformVersion string                   `json:"terraform_version"`
	Serial           uint64                   `json:"serial"`
	Lineage          string                   `json:"lineage"`
	RootOutputs      map[string]outputStateV4 `json:"outputs"`
	Resources        []resourceStateV4        `json:"resources"`
	CheckResults     json.RawMessage          `json:"check_results"`
}

type outputStateV4 struct {
	ValueRaw     json.RawMessage `json:"value"`
	ValueTypeRaw json.RawMessage `json:"type"`
	Sensitive    bool            `json:"sensitive,omitempty"`
}

type resourceStateV4 struct {
	Module         string                  `json:"module,omitempty"`
	Mode           string                  `json:"mode"`
	Type           string                  `json:"type"`
	Name           string                  `json:"name"`
	EachMode       string                  `json:"each,omitempty"`
	ProviderConfig string                  `json:"provider"`
	Instances      []instanceObjectStateV4 `json:"instances"`
}

type instanceObjectStateV4 struct {
	IndexKey json.RawMessage `json:"index_key,omitempty"`
	Status   string          `json:"status,omitempty"`
	Deposed  string          `json:"deposed,omitempty"`
	// ProviderInstance is OpenTofu's per-instance provider address, written
	// instead of the resource's for a provider configuration with for_each
	// (states.ResourceInstance.ProviderKey).
	ProviderInstance string `json:"provider,omitempty"`
	instanceTailV4
}

// instanceTailV4 is the part of an instance object that depends only on the
// object, not on where it sits: what CachedEncoding caches.
type instanceTailV4 struct {
	SchemaVersion           uint64            `json:"schema_version"`
	AttributesRaw           json.RawMessage   `json:"attributes,omitempty"`
	AttributesFlat          map[string]string `json:"attributes_flat,omitempty"`
	AttributeSensitivePaths json.RawMessage   `json:"sensitive_attributes,omitempty"`
	IdentitySchemaVersion   *uint64           `json:"identity_schema_version,omitempty"`
	IdentityRaw             json.RawMessage   `json:"identity,omitempty"`
	PrivateRaw              []byte            `json:"private,omitempty"`
	Dependencies            []string          `json:"dependencies,omitempty"`
	CreateBeforeDestroy     bool              `json:"create_before_destroy,omitempty"`
	SkipDestroy             bool              `json:"skip_destroy,omitempty"` // OpenTofu's
}

// pathStepV4 is one step of a sensitive attribute path.
type pathStepV4 struct {
	Type  string          `json:"type"` // "get_attr" or "index"
	Value json.RawMessage `json:"value"`
}

// indexValueV4 is an index step's key with its cty type.
type indexValueV4 struct {
	Value json.RawMessage `json:"value"`
	Type  json.RawMessage `json:"type"`
}
