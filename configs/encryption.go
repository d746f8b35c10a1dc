package configs

import "github.com/hashicorp/hcl/v2"

// EncryptionBlock is the terraform block's encryption block, kept as HCL:
// package encryption decodes it (configs does not know its schema). Only
// the root module's is used.
type EncryptionBlock struct {
	Body hcl.Body
	// Overrides are the encryption blocks of override files, in the order
	// they apply (encryption.Merge each onto Body).
	Overrides []hcl.Body
	DeclRange hcl.Range
}
