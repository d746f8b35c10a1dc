package command

import (
	"errors"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/internal/encryption"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/tfdiags"
)

// readArchive opens a plan archive and reads its plan; it needs no
// configuration directory, providers or state. An encrypted archive is
// refused, saying so: readArchiveIn decrypts it.
func readArchive(path string, opts ...planfile.Option) (*planfile.Reader, *plans.Plan, hcl.Diagnostics) {
	enc, _ := encryption.New(nil, encryption.Options{})
	return readArchiveWith(path, enc.Plan(), opts...)
}

// readArchiveIn is readArchive decrypting an encrypted archive with
// TF_ENCRYPTION and wd's encryption block.
func readArchiveIn(m *Meta, wd, path string, opts ...planfile.Option) (*planfile.Reader, *plans.Plan, hcl.Diagnostics) {
	enc, diags := loadEncryptionIn(m, wd)
	if diags.HasErrors() {
		return nil, nil, diags
	}
	return readArchiveWith(path, enc.Plan(), opts...)
}

// planFileDiags explains why a plan archive was refused. The planfile
// error already names the file, the check that failed and the entry.
func planFileDiags(err error) hcl.Diagnostics {
	switch {
	case errors.Is(err, planfile.KindUnsigned), errors.Is(err, planfile.KindSignature):
		return hcl.Diagnostics{tfdiags.Errorf("Plan signature check failed",
			"%s\n\nNothing in the archive was used. Use only archives signed with the key that -verify-key trusts (plan -sign-key=FILE).", err)}
	case errors.Is(err, planfile.KindIO):
		return hcl.Diagnostics{tfdiags.Errorf("Failed to read plan file", "%s", err)}
	case errors.Is(err, planfile.KindForeignPlan):
		return hcl.Diagnostics{tfdiags.Errorf("Plan file from Terraform or OpenTofu",
			"%s\n\nShow or apply it with the tool that made it (terraform show/apply FILE, tofu show/apply FILE), or make a plankit plan from the same configuration and state with plan -out=FILE.", err)}
	case errors.Is(err, planfile.KindFormatVersion):
		return hcl.Diagnostics{tfdiags.Errorf("Unsupported plan file format",
			"%s\n\nApply the plan with the plankit version that made it, or plan again.", err)}
	}
	return hcl.Diagnostics{tfdiags.Errorf("Invalid plan file",
		"%s\n\nThe file is not a usable plan archive; nothing in it was used. Create a new plan with plan -out=FILE.", err)}
}

// verifyKeyOptions are the archive-opening options for -verify-key=FILE
// (none when file is empty): the archive's signature is then checked
// while it is opened, before any entry is decoded.
func verifyKeyOptions(wd, file string) ([]planfile.Option, hcl.Diagnostics) {
	if file == "" {
		return nil, nil
	}
	pub, err := planfile.LoadVerifyKey(resolve(wd, file))
	if err != nil {
		return nil, hcl.Diagnostics{tfdiags.Errorf("Failed to load the verify key", "Reading -verify-key %s failed: %s", file, err)}
	}
	return []planfile.Option{planfile.WithVerifyKey(pub)}, nil
}
